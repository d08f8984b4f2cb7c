/**
 * Rows → API shape (docs/API.md): declared fields minus secrets, orgId, timestamps as ISO,
 * `<ref>Label` / `<refs>Labels` loaded in one query per referenced resource, and texts
 * declared `textFrom` rendered in the caller's language.
 */
import type { FieldDef, Metadata, ResourceDef } from '@rti/metadata';
import { Op, type Model, type Transaction } from 'sequelize';
import type { Database } from '../db';
import { orgFieldOf } from '../db/naming';
import type { Language, RequestContext } from '../http/types';
import type { TFunction, TParams } from '../i18n/translator';
import { scopeWhere } from './scope';
import { isSecret } from './validate';

export type Row = Record<string, unknown>;

const iso = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : v);

function plainValue(f: FieldDef, v: unknown): unknown {
  if (v === undefined) return null;
  if (f.type === 'datetime') return iso(v);
  if (f.type === 'bool' && v !== null) return Boolean(v);
  return v;
}

export function plainRow(res: ResourceDef, instance: Model | Row): Row {
  const r = (typeof (instance as Model).get === 'function' ? (instance as Model).get({ plain: true }) : instance) as Row;
  const out: Row = { id: r.id };
  for (const f of res.fields) {
    if (isSecret(f) || f.name === 'id') continue;
    out[f.name] = plainValue(f, r[f.name]);
  }
  const orgField = orgFieldOf(res);
  if (orgField && orgField !== 'id' && !(orgField in out)) out[orgField] = r[orgField] ?? null;
  out.createdAt = iso(r.createdAt) ?? null;
  out.updatedAt = iso(r.updatedAt) ?? null;
  return out;
}

const asIds = (v: unknown): number[] => (Array.isArray(v) ? v : [v]).filter((x): x is number => typeof x === 'number');

/** Adds FLabel/FLabels to plain rows, one query per referenced resource. */
export async function attachLabels(db: Database, meta: Metadata, res: ResourceDef, rows: Row[], ctx: RequestContext, transaction?: Transaction): Promise<void> {
  const refFields = res.fields.filter((f) => (f.type === 'ref' || f.type === 'refs') && f.ref && meta.resources[f.ref.resource] && !isSecret(f));
  if (!refFields.length || !rows.length) return;
  // target resource → label fields and ids wanted
  const wanted = new Map<string, { labels: Set<string>; ids: Set<number> }>();
  for (const f of refFields) {
    const w = wanted.get(f.ref!.resource) ?? { labels: new Set<string>(), ids: new Set<number>() };
    w.labels.add(f.ref!.label);
    for (const row of rows) for (const id of asIds(row[f.name])) w.ids.add(id);
    wanted.set(f.ref!.resource, w);
  }
  const found = new Map<string, Map<number, Row>>();
  await Promise.all(
    [...wanted].map(async ([target, w]) => {
      const targetRes = meta.resources[target];
      const byId = new Map<number, Row>();
      found.set(target, byId);
      if (!w.ids.size) return;
      const labels = [...w.labels].filter((l) => l === 'id' || targetRes.fields.some((f) => f.name === l && !isSecret(f)));
      // Labels are scoped to the organisation only: a warehouse-restricted user still sees
      // the name of a warehouse its row points at.
      const rowsFound = await db.models[target].findAll({
        attributes: ['id', ...labels.filter((l) => l !== 'id')],
        where: { [Op.and]: [{ id: { [Op.in]: [...w.ids] } }, scopeWhere(targetRes, ctx, { warehouse: false })] },
        transaction,
      });
      for (const r of rowsFound) byId.set(Number(r.get('id')), r.get({ plain: true }) as Row);
    }),
  );
  for (const f of refFields) {
    const byId = found.get(f.ref!.resource)!;
    const label = (id: number) => {
      const r = byId.get(id);
      return r ? (r[f.ref!.label] ?? null) : null;
    };
    for (const row of rows) {
      const v = row[f.name];
      if (f.type === 'ref') row[`${f.name}Label`] = typeof v === 'number' ? label(v) : null;
      else row[`${f.name}Labels`] = asIds(v).map(label);
    }
  }
}

/** What a `textFrom` json field holds: an i18n key of the server's catalogues and its parameters. */
export interface StoredText {
  key: string;
  params?: TParams;
}

function storedText(v: unknown): StoredText | null {
  let x = v;
  if (typeof x === 'string') {
    try {
      x = JSON.parse(x);
    } catch {
      return null;
    }
  }
  if (!x || typeof x !== 'object' || typeof (x as StoredText).key !== 'string') return null;
  const params = (x as StoredText).params;
  return { key: (x as StoredText).key, params: params && typeof params === 'object' && !Array.isArray(params) ? params : undefined };
}

/**
 * Server texts are stored as a key and parameters and rendered when read, in the reader's
 * language (never frozen in the language of the process that wrote them). A row without a
 * stored key, or with a key no catalogue knows, keeps the text as written.
 */
export function renderTexts(res: ResourceDef, rows: Row[], lang: Language, t: TFunction): void {
  const fields = res.fields.filter((f) => f.textFrom && !isSecret(f));
  if (!fields.length) return;
  for (const row of rows) {
    for (const f of fields) {
      const stored = storedText(row[f.textFrom!]);
      if (!stored) continue;
      const text = t(lang, stored.key, stored.params);
      if (text !== stored.key) row[f.name] = text;
    }
  }
}
