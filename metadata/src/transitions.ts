/**
 * Named workflow steps and header-and-lines documents: the pure helpers server and console
 * share (paths, labels, which step a row allows, document numbers), so both read a
 * declaration the same way.
 */
import { resourceApiPrefix } from './permissions';
import type { ChildrenDef, FieldDef, ResourceDef, TransitionDef } from './types';

/** A step as the engine runs it: declared transitions plus `rules.statusUpdate`. */
export interface ResolvedTransition extends Omit<TransitionDef, 'to' | 'from'> {
  path: string;
  /** statuses the step starts from; undefined = any (a status call without declared transitions) */
  from?: Array<string | number>;
  /** fixed target; undefined when the caller chooses it (`choose`) */
  to?: string | number;
  /**
   * `rules.statusUpdate`: the caller sends the target in the status field; allowed targets per
   * current status (undefined = any other value of the enumeration).
   */
  choose?: { targets?: Record<string, Array<string | number>> };
}

/** Name of the step `rules.statusUpdate` declares (`<prefix>/status/update`). */
export const STATUS_UPDATE_STEP = 'statusUpdate';

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

export function transitionApiPath(res: Pick<ResourceDef, 'name' | 'apiPath'>, t: Pick<TransitionDef, 'name' | 'path'>): string {
  return t.path ?? `${resourceApiPrefix(res)}/${kebab(t.name)}`;
}

export const transitionLabelKey = (t: Pick<TransitionDef, 'name' | 'label'>): string => t.label ?? `transitions.${t.name}`;

/** Every step of a resource, the status call included. */
export function resourceTransitions(res: ResourceDef): ResolvedTransition[] {
  const out: ResolvedTransition[] = (res.transitions ?? []).map((t) => ({ ...t, path: transitionApiPath(res, t) }));
  const su = res.rules?.statusUpdate;
  if (su) {
    out.push({
      name: STATUS_UPDATE_STEP,
      path: `${resourceApiPrefix(res)}/status/update`,
      field: su.field,
      from: su.transitions ? Object.keys(su.transitions) : undefined,
      inputs: [],
      choose: { targets: su.transitions },
    });
  }
  return out;
}

/** Shared status calls (`statusCall`): path → the steps it dispatches to, by target. */
export function statusCalls(res: ResourceDef): Map<string, ResolvedTransition[]> {
  const out = new Map<string, ResolvedTransition[]>();
  for (const t of resourceTransitions(res)) if (t.statusCall) out.set(t.statusCall, [...(out.get(t.statusCall) ?? []), t]);
  return out;
}

export const findTransition = (res: ResourceDef, step: string): ResolvedTransition | undefined => resourceTransitions(res).find((t) => t.name === step);

const same = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);

/** Whether a row's current status lets the step start (fixed-target steps). */
export function transitionAllowed(t: Pick<ResolvedTransition, 'field' | 'from'>, row: Record<string, unknown> | undefined): boolean {
  if (!row) return false;
  return !t.from || t.from.some((v) => same(v, row[t.field]));
}

/** Who runs a step, as far as its guard needs to know. */
export interface StepUser {
  id: number;
  username: string;
  realName?: string | null;
}

/** What a stamp field records of a user: int/ref fields the id, string fields the name (the engine's stamp). */
export function userStampValue(res: ResourceDef, field: string, user: StepUser | null): string | number | null {
  const f = res.fields.find((x) => x.name === field);
  if (f && (f.type === 'int' || f.type === 'ref')) return user?.id ?? null;
  const name = user?.realName || user?.username || 'system';
  return f?.maxLength ? name.slice(0, f.maxLength) : name;
}

/**
 * Whether the step's `guard.notUser` stops this user on this row: the field records the same
 * user (by id for int/ref fields, by the stamped name for string fields). An empty field, no
 * guard or no user (a system job) never stops.
 */
export function guardStopsUser(res: ResourceDef, t: Pick<TransitionDef, 'guard'>, row: Record<string, unknown> | undefined, user: StepUser | null): boolean {
  const field = t.guard?.notUser;
  if (!field || !row || !user) return false;
  const recorded = row[field];
  if (recorded === null || recorded === undefined || recorded === '') return false;
  return same(recorded, userStampValue(res, field, user));
}

/** The step's inputs as field definitions (names resolve to the resource's own fields). */
export function transitionInputs(res: ResourceDef, t: Pick<TransitionDef, 'inputs'>): Array<{ field: FieldDef; writes: boolean }> {
  return (t.inputs ?? []).flatMap((i): Array<{ field: FieldDef; writes: boolean }> => {
    if (typeof i !== 'string') return [{ field: i, writes: false }];
    const f = res.fields.find((x) => x.name === i);
    return f ? [{ field: f, writes: true }] : [];
  });
}

/** Lines written together with their header (`children` marked inline). */
export const inlineChildren = (res: ResourceDef): ChildrenDef[] => (res.children ?? []).filter((c) => c.inline);

/** The atomic save call of a document (header + inline lines in one call). */
export const documentSavePath = (res: Pick<ResourceDef, 'name' | 'apiPath'>): string => `${resourceApiPrefix(res)}/save`;

export const isDocument = (res: ResourceDef): boolean => inlineChildren(res).length > 0;

/** Header fields computed from lines: never accepted from a client. */
export const rollUpFields = (res: ResourceDef): string[] => (res.children ?? []).flatMap((c) => (c.rollUps ?? []).map((r) => r.field));

const TOKEN = /\{(date|seq)(?::([^}]*))?\}/g;

/** Problems of a number pattern (empty = fine). */
export function numberPatternProblem(pattern: string): string | undefined {
  const tokens = [...pattern.matchAll(TOKEN)];
  const seq = tokens.filter((m) => m[1] === 'seq');
  if (seq.length !== 1) return 'needs exactly one {seq:N}';
  if (!/^[1-9]$|^1[0-2]$/.test(seq[0][2] ?? '')) return '{seq:N} needs a width N of 1 to 12';
  for (const m of tokens)
    if (m[1] === 'date' && !/^(YYYY|YY|MM|DD|[-_./])+$/.test(m[2] ?? '')) return `{date:${m[2] ?? ''}} may hold only YYYY, YY, MM, DD and - _ . /`;
  if (/[{}]/.test(pattern.replace(TOKEN, ''))) return 'unknown {…} placeholder (use {date:…} and {seq:N})';
  return undefined;
}

/** Calendar parts of a date in a time zone (default the process's own). */
function dateParts(at: Date, timeZone?: string): { y: string; m: string; d: string } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { y: get('year'), m: get('month'), d: get('day') };
}

/**
 * The number without its sequence (`BD20250102-`): the sequence counts per prefix, so a dated
 * pattern starts again at 1 each day. The {seq} position is kept as a marker.
 */
export function numberScope(pattern: string, at: Date, timeZone?: string): string {
  const { y, m, d } = dateParts(at, timeZone);
  return pattern.replace(TOKEN, (_, kind: string, arg: string | undefined) =>
    kind === 'seq' ? '{seq}' : (arg ?? '').replace(/YYYY|YY|MM|DD/g, (p) => (p === 'YYYY' ? y : p === 'YY' ? y.slice(2) : p === 'MM' ? m : d)),
  );
}

/** The number itself: the scope with the sequence zero-padded to the pattern's width. */
export function renderNumber(pattern: string, scope: string, seq: number): string {
  const width = Number([...pattern.matchAll(TOKEN)].find((m) => m[1] === 'seq')?.[2] ?? 1);
  return scope.replace('{seq}', String(seq).padStart(width, '0'));
}
