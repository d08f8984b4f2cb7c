import { definePlugin } from '@rti/server/plugin-api';
import { figuresReader } from '@rti/plugin-inventory/figures';

/** Customer daily report: stock per warehouse and carrier code now, as the inventory plugin counts it; mailed by task customerTask. */
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
        { key: 'warehouseName', label: 'fields.warehouse' },
        { key: 'carrierCode', label: 'fields.carrierCode' },
        ...['inStock', 'available', 'idle', 'inTransitIn'].map((key) => ({ key, label: `customer-daily.${key}`, type: 'int' as const })),
        { key: 'level', label: 'customer-daily.level' },
      ],
      chart: { type: 'bar', x: 'carrierCode', y: ['inStock', 'available'] },
      async rows(q, w) {
        const { rows } = await figures.byCode(q.ctx, q.params as { warehouseId?: number }, q.t);
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
