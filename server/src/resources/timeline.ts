/**
 * A document's timeline: who ran which workflow step when, read from the operation log
 * (audit/ writes one row per step with the step's name and, for a step run from code, its
 * cause). One generic call per resource with steps, `<prefix>/timeline { id }`: the record
 * must be in the caller's scope (10002 like `base`), the answer is oldest first, in the
 * caller's language:
 *
 *   [{ at, user, step, label, from, to, cause? }]
 *
 * `step` is the step's name (`create` for the row's creation when the log holds it), `label`
 * its button label, `from`/`to` the status labels the step moved between, `cause` the step
 * that ran it from code ("by Close of Receipt RC20261126-0001").
 */
import { resourceApiPrefix, resourceLabelKey, resourceTransitions, transitionLabelKey, type FieldDef, type Metadata, type ResourceDef } from '@rti/metadata';
import { Op, type WhereOptions } from 'sequelize';
import type { CallDef, Language, RequestContext } from '../http/types';
import type { TFunction } from '../i18n/translator';
import type { ScopedRepository } from './repository';
import { scopeWhere } from './scope';
import type { Database } from '../db';

export const OPERATION_LOG = 'operation-log';
/** entries answered at most (the newest of them) */
export const TIMELINE_MAX = 500;
const CREATE = 10;
const UPDATE = 20;

export interface TimelineEntry {
  at: string;
  user: string;
  step: string;
  label: string;
  from: string | null;
  to: string | null;
  cause?: { resource: string; step: string; ids: number[]; label: string };
}

export interface TimelineDeps {
  db: Database;
  metadata: Metadata;
  t: TFunction;
  repo: (resource: string, ctx: RequestContext) => ScopedRepository;
}

/** Resources with a timeline: those declaring steps (transitions or rules.statusUpdate). */
export const hasTimeline = (res: ResourceDef): boolean => resourceTransitions(res).length > 0;

export const timelinePath = (res: Pick<ResourceDef, 'name' | 'apiPath'>): string => `${resourceApiPrefix(res)}/timeline`;

const parse = (s: unknown): Record<string, unknown> | null => {
  if (typeof s !== 'string' || !s) return null;
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

function enumText(t: TFunction, lang: Language, meta: Metadata, f: FieldDef | undefined, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const e = (meta.enums[f?.enum ?? ''] ?? []).find((x) => String(x.value) === String(v));
  return e ? t(lang, e.label) : String(v);
}

export async function readTimeline(deps: TimelineDeps, res: ResourceDef, body: Record<string, unknown>, ctx: RequestContext): Promise<TimelineEntry[]> {
  // validates the id and refuses a row out of the caller's scope (10002), like `base`
  const record = await deps.repo(res.name, ctx).get({ id: body.id });
  const log = deps.db.models[OPERATION_LOG];
  if (!log) return [];
  const id = Number(record.id);
  const orgId = typeof record.orgId === 'number' ? record.orgId : ctx.orgId;
  // rows written before steps were named carry only the logObject
  const which: WhereOptions[] = [{ resource: res.name }];
  if (res.logObject !== undefined && res.logObject !== null) which.push({ resource: null, object: res.logObject });
  const rows = (await log.findAll({
    where: { [Op.and]: [orgId === null ? {} : { orgId }, { objectId: id }, { action: [CREATE, UPDATE] }, { [Op.or]: which }] },
    order: [
      ['time', 'DESC'],
      ['id', 'DESC'],
    ],
    limit: TIMELINE_MAX * 4,
    raw: true,
  })) as unknown as Array<Record<string, unknown>>;

  const { t, metadata: meta } = deps;
  const lang = ctx.language;
  const steps = new Map(resourceTransitions(res).map((s) => [s.name, s]));
  const statusField = (name: string | undefined) => res.fields.find((f) => f.name === name);
  const defaultStatus = statusField(res.statusField ?? resourceTransitions(res)[0]?.field ?? 'status');

  // the people, by the ids the log recorded (their real name; the log's user name otherwise)
  const userIds = [...new Set(rows.map((r) => Number(r.createdBy)).filter((v) => v > 0))];
  const names = new Map<number, string>();
  if (userIds.length && deps.db.models.user) {
    for (const u of (await deps.db.models.user.findAll({ where: { id: userIds }, attributes: ['id', 'realName'], raw: true })) as unknown as Array<
      Record<string, unknown>
    >) {
      if (u.realName) names.set(Number(u.id), String(u.realName));
    }
  }

  const out: TimelineEntry[] = [];
  for (const r of rows) {
    if (out.length >= TIMELINE_MAX) break;
    const content = parse(r.content);
    const who = names.get(Number(r.createdBy)) ?? String(r.operator ?? 'system');
    const at = new Date(r.time as string | Date).toISOString();
    if (Number(r.action) === CREATE) {
      out.push({
        at,
        user: who,
        step: 'create',
        label: t(lang, 'server.transitions.timelineCreated'),
        from: null,
        to: enumText(t, lang, meta, defaultStatus, content?.[defaultStatus?.name ?? '']),
      });
      continue;
    }
    const step = typeof r.step === 'string' && r.step ? steps.get(r.step) : undefined;
    if (!step) continue; // an edit, not a step (or a step no longer declared)
    const f = statusField(step.field);
    const change = content?.[step.field];
    const [before, after] = Array.isArray(change) ? change : [null, step.to ?? null];
    const entry: TimelineEntry = {
      at,
      user: who,
      step: step.name,
      label: t(lang, transitionLabelKey(step)),
      from: enumText(t, lang, meta, f, before),
      to: enumText(t, lang, meta, f, after),
    };
    const cause = parse(r.cause);
    if (cause && typeof cause.resource === 'string' && typeof cause.step === 'string') entry.cause = await causeOf(deps, cause, ctx);
    out.push(entry);
  }
  return out.reverse();
}

/** "by Close of Receipt RC…": the titles only of rows the caller may see. */
async function causeOf(deps: TimelineDeps, cause: Record<string, unknown>, ctx: RequestContext): Promise<NonNullable<TimelineEntry['cause']>> {
  const { t, metadata: meta } = deps;
  const lang = ctx.language;
  const resource = String(cause.resource);
  const stepName = String(cause.step);
  const ids = Array.isArray(cause.ids) ? cause.ids.map(Number).filter((v) => Number.isInteger(v) && v > 0) : [];
  const res = meta.resources[resource];
  if (!res) return { resource, step: stepName, ids, label: stepName };
  const step = resourceTransitions(res).find((s) => s.name === stepName);
  let titles: string[] = [];
  const model = deps.db.models[res.name];
  if (model && ids.length) {
    const rows = (await model.findAll({
      where: { [Op.and]: [scopeWhere(res, ctx), { id: { [Op.in]: ids.slice(0, 5) } }] },
      attributes: ['id', res.titleField],
      raw: true,
    })) as unknown as Array<Record<string, unknown>>;
    titles = rows.map((x) => (x[res.titleField] === null || x[res.titleField] === undefined ? `#${x.id}` : String(x[res.titleField])));
    if (ids.length > 5 && titles.length) titles.push('…');
  }
  const label = t(lang, 'server.transitions.timelineCause', {
    step: step ? t(lang, transitionLabelKey(step)) : stepName,
    resource: t(lang, resourceLabelKey(res)),
    title: titles.join(', '),
  })
    .replace(/\s+/g, ' ')
    .trim();
  return { resource, step: stepName, ids: titles.length ? ids : [], label };
}

/** `<prefix>/timeline` for a resource with steps (none otherwise). */
export function timelineCalls(res: ResourceDef, deps: TimelineDeps): CallDef[] {
  if (!hasTimeline(res) || (res.calls?.base === false && res.calls?.list === false)) return [];
  return [{ path: timelinePath(res), resource: res.name, handler: ({ body, ctx }) => readTimeline(deps, res, body, ctx) }];
}
