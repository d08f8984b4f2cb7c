import { definePlugin } from '@rti/server/plugin-api';
import { figuresReader } from '@rti/plugin-inventory/figures';

/** Customer daily report (the scaffold's rows per code became rows per warehouse): stock now against minimum, maximum and theory, as inventory counts it; task customerTask. */
export default definePlugin({
  id: 'customer-daily',
  dependsOn: ['inventory'],
  perOrganisation: true, // off in an organisation until an administrator switches it on
  server(ctx) {
    const figures = figuresReader(ctx);
    ctx.reports.define({
      name: 'customer-daily',
      title: 'customer-daily.title',
      path: '/customer-daily',
      parameters: [{ name: 'warehouseId', type: 'ref', label: 'fields.warehouse', ref: { resource: 'warehouse', label: 'name' } }],
      columns: [
        { key: 'warehouseCode', label: 'customer-daily.warehouseCode' },
        { key: 'warehouseName', label: 'fields.warehouse' },
        ...['inStock', 'available', 'idle', 'inTransitIn', 'min', 'max', 'theory', 'gap'].map((key) => ({
          key,
          label: `customer-daily.${key}`,
          type: 'int' as const,
        })),
        { key: 'level', label: 'customer-daily.level' },
      ],
      chart: { type: 'bar', x: 'warehouseName', y: ['inStock', 'theory'] },
      async rows(q, w) {
        const rows = await figures.byWarehouse(q.ctx, q.params as { warehouseId?: number }, q.t);
        return { list: rows.slice(w.offset, w.offset + w.limit), total: rows.length };
      },
      schedule: {
        taskName: 'customerTask',
        parameters: () => ({}),
        tally: (row) => row.levelKey,
        summary: (run, r) => run.t('customer-daily.mail', { count: r.rows, below: r.counts.below ?? 0 }),
      },
    });
  },
});
