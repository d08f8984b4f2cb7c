/**
 * Database figures: the file/schema size as the engine reports it (SQLite page_count ×
 * page_size; MySQL information_schema data + index length of the current schema) — a server
 * figure, the same for every organisation — and row counts per resource, counted through the
 * caller's scoped repository so an organisation only ever sees its own rows.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { PluginServerContext, RequestContext } from '@rti/server/plugin-api';

export interface DatabaseSize {
  dialect: string;
  /** bytes */
  size: number;
  tables: number;
}

export async function databaseSize(db: Sequelize): Promise<DatabaseSize> {
  const dialect = db.getDialect();
  if (dialect === 'sqlite') {
    const [pc] = await db.query<{ page_count: number }>('PRAGMA page_count', { type: QueryTypes.SELECT });
    const [ps] = await db.query<{ page_size: number }>('PRAGMA page_size', { type: QueryTypes.SELECT });
    const [tc] = await db.query<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", {
      type: QueryTypes.SELECT,
    });
    return { dialect, size: Number(pc.page_count) * Number(ps.page_size), tables: Number(tc.n) };
  }
  const [row] = await db.query<{ size: number | string | null; n: number | string }>(
    'SELECT SUM(data_length + index_length) AS size, COUNT(*) AS n FROM information_schema.TABLES WHERE table_schema = DATABASE()',
    { type: QueryTypes.SELECT },
  );
  return { dialect, size: Number(row?.size ?? 0), tables: Number(row?.n ?? 0) };
}

export interface ResourceCount {
  resource: string;
  /** i18n key of the resource label */
  label: string;
  rows: number;
}

/** rows per organisation-scoped resource, largest first */
export async function resourceCounts(ctx: PluginServerContext, call: RequestContext): Promise<ResourceCount[]> {
  const out: ResourceCount[] = [];
  for (const res of Object.values(ctx.metadata.resources)) {
    if (!res.orgScoped) continue;
    out.push({ resource: res.name, label: `resources.${res.name}`, rows: await ctx.repo(res.name, call).count() });
  }
  return out.sort((a, b) => b.rows - a.rows || a.resource.localeCompare(b.resource));
}
