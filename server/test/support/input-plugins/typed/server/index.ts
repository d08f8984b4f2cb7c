/**
 * A test plugin declaring its calls' inputs (docs/PLUGINS.md "Declared call inputs"): typed
 * fields of every kind, a label of its own, a closed value list and paging over the caller's
 * warehouses, answered from the scoped repository.
 */
import { definePlugin } from '../../../../../src/plugin-api';

export default definePlugin({
  id: 'typed',
  server(ctx) {
    ctx.addCall({
      path: '/typed/echo',
      input: {
        count: { type: 'int', required: true, min: 1, max: 100 },
        threshold: { type: 'decimal', label: 'typed.fields.threshold', min: 0, max: 10 },
        name: { type: 'string', maxLength: 20 },
        code: { type: 'string', pattern: 'code', maxLength: 10 },
        warehouseId: { type: 'ref' },
        carrierIds: { type: 'refs', maxItems: 5 },
        status: { type: 'enum', enum: 'deviceStatus' },
        motion: { type: 'enum', values: ['moving', 'stopped', 'offline'] },
        since: { type: 'datetime' },
        day: { type: 'date' },
        unsolved: { type: 'bool', default: true },
      },
      handler: ({ input }) => {
        // compile-time proof of the inferred types (a wrong one fails the typecheck)
        const count: number = input.count;
        const unsolved: boolean = input.unsolved;
        const motion: 'moving' | 'stopped' | 'offline' | undefined = input.motion;
        const since: Date | undefined = input.since;
        const ids: number[] | undefined = input.carrierIds;
        return {
          ...input,
          count,
          unsolved,
          motion,
          ids,
          since: since?.toISOString() ?? null,
          types: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v instanceof Date ? 'date' : Array.isArray(v) ? 'array' : typeof v])),
        };
      },
    });
    ctx.addCall({
      path: '/typed/warehouses',
      paging: { maxLimit: 50 },
      input: { name: { type: 'string', maxLength: 50 } },
      handler: async ({ input, ctx: call }) => {
        const repo = ctx.repo('warehouse', call);
        const where = input.name ? { name: input.name } : {};
        const [rows, total] = await Promise.all([repo.findAll({ where, order: [['id', 'ASC']], limit: input.limit, offset: input.offset }), repo.count(where)]);
        return { page: input.page, limit: input.limit, total, ids: rows.map((r) => r.get('id')) };
      },
    });
  },
});
