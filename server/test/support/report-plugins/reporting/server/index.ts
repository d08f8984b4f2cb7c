/**
 * A test plugin declaring one report over warehouse rows: a time range, a text filter and a
 * numeric one; two sheets (every warehouse, and those below their minimum); a schedule.
 */
import { Op, type WhereOptions } from 'sequelize';
import { definePlugin, repositoryPage, repositoryScan, timeRange, type RepositoryQuery, type ReportQuery } from '../../../../../src/plugin-api';

interface Params {
  time: { from: number; to: number };
  code?: string;
  minInventory?: number;
}

export default definePlugin({
  id: 'reporting',
  server(ctx) {
    const query = (q: ReportQuery<Params>): RepositoryQuery => {
      const where: WhereOptions[] = [{ createdAt: { [Op.between]: [new Date(q.params.time.from), new Date(q.params.time.to)] } }];
      if (q.params.code) where.push({ code: { [Op.like]: `%${q.params.code}%` } });
      if (q.params.minInventory !== undefined) where.push({ minInventory: { [Op.gte]: q.params.minInventory } });
      return { where: { [Op.and]: where }, order: [['code', 'ASC']], serialize: true };
    };
    ctx.reports.define<Params>({
      name: 'reporting.warehouses',
      title: 'resources.warehouse',
      path: '/reporting/warehouses',
      parameters: [
        timeRange({ defaultDays: 30, maxDays: 366 }),
        { name: 'code', type: 'string', maxLength: 32 },
        { name: 'minInventory', type: 'int', min: 0, max: 1000 },
      ],
      columns: [
        { key: 'code', label: 'fields.code' },
        { key: 'name', label: 'fields.name', width: 24 },
        { key: 'minInventory', label: 'fields.minInventory', type: 'int', unit: 'pieces' },
        { key: 'available', label: 'fields.available', type: 'bool' },
        { key: 'inoutProcessor', label: 'fields.inoutProcessor', type: 'enum', enum: 'inoutProcessor' },
        { key: 'createdAt', label: 'fields.createdAt', type: 'datetime' },
      ],
      sheets: [
        {
          name: 'resources.warehouse',
          columns: [
            { key: 'code', label: 'fields.code' },
            { key: 'name', label: 'fields.name' },
            { key: 'minInventory', label: 'fields.minInventory', type: 'int', unit: 'pieces' },
            { key: 'createdAt', label: 'fields.createdAt', type: 'datetime' },
          ],
        },
        {
          name: 'fields.minInventory',
          columns: [{ key: 'code', label: 'fields.code' }],
          rows: (r: { minInventory: number; code: string }) => (r.minInventory > 0 ? [r] : []),
        },
      ],
      pageSize: 2,
      rows: (q, window) => repositoryPage(ctx.repo('warehouse', q.ctx), query(q), window),
      scan: (q) => repositoryScan(ctx.repo('warehouse', q.ctx), query(q), 2),
      zone: () => 480,
      fileName: () => 'warehouses',
      schedule: {
        taskName: 'reportingWarehouses',
        parameters: (run) => ({ minInventory: run.task.battery ?? undefined }),
        summary: (run, r) => `${r.rows} warehouses`,
      },
    });

    // big workbooks from a source that never waits (rows built in memory): interleaved sheets
    // and sheets with their own rows must both come out whole
    const BIG = 30_000;
    const text = 'x'.repeat(80);
    const big = async function* (tag: string) {
      for (let i = 0; i < BIG; i += 5000) yield Array.from({ length: 5000 }, (_, j) => ({ n: i + j, text: `${tag}-${i + j}-${text}` }));
    };
    const cols = [
      { key: 'n', label: 'n', type: 'int' as const },
      { key: 'text', label: 'text' },
    ];
    ctx.reports.define({
      name: 'reporting.big',
      title: 'big',
      calls: { export: '/reporting/big/export' },
      parameters: [],
      columns: cols,
      sheets: [
        { name: 'one', columns: cols },
        { name: 'two', columns: cols },
      ],
      scan: () => big('row'),
    });
    ctx.reports.define({
      name: 'reporting.big-sheets',
      title: 'big',
      calls: { export: '/reporting/big-sheets/export' },
      parameters: [],
      columns: cols,
      sheets: [
        { name: 'one', columns: cols, scan: () => big('one') },
        { name: 'two', columns: cols, scan: () => big('two') },
      ],
    });
  },
});
