import { definePlugin } from '@rti/server/plugin-api';
import { figuresReader } from '@rti/plugin-inventory/figures';

/** Customer operation daily report A: stock per warehouse and carrier code now, as the inventory plugin counts it; mailed by task customerDailyReportA, customerDailyReportAMail. */
export default definePlugin({
  id: 'customer-operation-a',
  dependsOn: ['inventory'],
  perOrganisation: true, // off in an organisation until an administrator switches it on
  server(ctx) {
    const figures = figuresReader(ctx);
    ctx.reports.define({
      name: 'customer-operation-a',
      title: 'customer-operation-a.title',
      path: '/customer-operation-a',
      parameters: [{ name: 'warehouseId', type: 'ref', label: 'fields.warehouse', ref: { resource: 'warehouse', label: 'name' } }],
      columns: [
        { key: 'warehouseName', label: 'fields.warehouse' },
        { key: 'carrierCode', label: 'fields.carrierCode' },
        ...['inStock', 'available', 'idle', 'inTransitIn'].map((key) => ({ key, label: `customer-operation-a.${key}`, type: 'int' as const })),
        { key: 'level', label: 'customer-operation-a.level' },
      ],
      chart: { type: 'bar', x: 'carrierCode', y: ['inStock', 'available'] },
      async rows(q, w) {
        const { rows } = await figures.byCode(q.ctx, q.params as { warehouseId?: number }, q.t);
        return { list: rows.slice(w.offset, w.offset + w.limit), total: rows.length };
      },
      schedule: {
        taskName: ['customerDailyReportA', 'customerDailyReportAMail'],
        parameters: () => ({}),
        tally: (row) => row.levelKey,
        summary: (run, r) => run.t('customer-operation-a.mail', { count: r.rows, below: r.counts.below ?? 0 }),
      },
    });
  },
});
