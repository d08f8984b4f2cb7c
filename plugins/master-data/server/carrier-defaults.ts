/**
 * A carrier inherits project and carrier type from its carrier code when the create or the
 * import row leaves them out (issue 10): the code already says both, and a carrier without
 * them drops out of every project and type filter. Given values are kept, even when they
 * differ from the code's.
 *
 * Imports fill a whole chunk from one query (a chunk handler); the per-row create hook then
 * finds nothing left to fill.
 */
import { Op, type Transaction } from 'sequelize';
import type { HookEvent, PluginServerContext, RequestContext } from '@rti/server/plugin-api';
import { orgRepo } from './helpers';

/** carrier field ← carrier-code field */
const INHERITED = [
  ['projectId', 'projectId'],
  ['type', 'type'],
] as const;

const missing = (v: unknown) => v === undefined || v === null || v === '';

export function installCarrierDefaults(ctx: PluginServerContext): void {
  const codes = async (call: RequestContext, ids: number[], transaction: Transaction) => {
    const rows = await orgRepo(ctx, 'carrier-code', call).rows(
      { id: { [Op.in]: ids } },
      { attributes: ['id', ...INHERITED.map(([, from]) => from)], transaction },
    );
    return new Map(rows.map((r) => [Number(r.id), r]));
  };
  const fill = (values: Record<string, unknown>, code: Record<string, unknown> | undefined) => {
    if (!code) return; // an unknown code is refused by the ref check
    for (const [field, from] of INHERITED) if (missing(values[field]) && !missing(code[from])) values[field] = code[from];
  };
  const needs = (values: Record<string, unknown>) => !missing(values.carrierCodeId) && INHERITED.some(([field]) => missing(values[field]));

  ctx.hooks.before('create', 'carrier', async (e: HookEvent) => {
    const data = e.data;
    if (!data || !needs(data)) return;
    const id = Number(data.carrierCodeId);
    fill(data, (await codes(e.ctx, [id], e.transaction)).get(id));
  });

  ctx.imports.validator('carrier', {
    async beforeCreateMany(e) {
      const open = e.rows.filter((r) => needs(r.values));
      if (!open.length) return;
      const byId = await codes(e.ctx, [...new Set(open.map((r) => Number(r.values.carrierCodeId)))], e.transaction);
      for (const r of open) fill(r.values, byId.get(Number(r.values.carrierCodeId)));
    },
  });
}
