/**
 * Loss rates (issue 18 item 3): carriers written off as lost by closed count tasks, per month,
 * warehouse (with its customer: the owner of its location) and carrier code, against the average
 * closing stock of that month (the daily snapshots) — `/inventory/loss` (+ export), at most 24
 * months. Months are UTC months; every read through the caller's scoped repository.
 */
import { Enums } from '@rti/metadata';
import { dayOf, timeRange, type PluginServerContext, type ReportQuery, type TimeRange } from '@rti/server/plugin-api';
import { Op, col, fn } from 'sequelize';

type Row = Record<string, any>;

interface Params {
  warehouseId?: number;
  carrierCodeId?: number;
  time?: TimeRange;
}

const monthOf = (t: string | number | Date) => new Date(t).toISOString().slice(0, 7);

export function installLoss(ctx: PluginServerContext): void {
  async function lossRows(q: ReportQuery<Params>): Promise<Row[]> {
    const { from, to } = q.params.time!;
    const closed = await ctx.repo('inventory-count', q.ctx).rows(
      {
        status: Enums.inventoryCountStatus.closed,
        closedTime: { [Op.gte]: new Date(from), [Op.lte]: new Date(to) },
        ...(q.params.warehouseId ? { warehouseId: q.params.warehouseId } : {}),
      },
      { attributes: ['id', 'warehouseId', 'closedTime'] },
    );
    if (!closed.length) return [];
    const countOf = new Map(closed.map((c) => [Number(c.id), c]));
    const lost = await ctx.repo('inventory-count-detail', q.ctx).rows(
      {
        inventoryCountId: { [Op.in]: [...countOf.keys()] },
        result: Enums.inventoryCountResult.lost,
        ...(q.params.carrierCodeId ? { carrierCodeId: q.params.carrierCodeId } : {}),
      },
      { attributes: ['inventoryCountId', 'carrierCodeId', [fn('COUNT', col('id')), 'n']], group: ['inventoryCountId', 'carrierCodeId'] },
    );
    const cells = new Map<string, { month: string; warehouseId: number; carrierCodeId: number | null; lost: number }>();
    for (const l of lost) {
      const c = countOf.get(Number(l.inventoryCountId))!;
      const month = monthOf(c.closedTime as string);
      const key = `${month}:${c.warehouseId}:${l.carrierCodeId ?? ''}`;
      const cell = cells.get(key) ?? {
        month,
        warehouseId: Number(c.warehouseId),
        carrierCodeId: l.carrierCodeId === null || l.carrierCodeId === undefined ? null : Number(l.carrierCodeId),
        lost: 0,
      };
      cell.lost += Number(l.n);
      cells.set(key, cell);
    }
    if (!cells.size) return [];
    // average closing stock of the month: the snapshots' sum over their number of days
    const whIds = [...new Set([...cells.values()].map((c) => c.warehouseId))];
    const snaps = ctx.repo('inventory-snapshot', q.ctx);
    const days = await snaps.rows(
      { warehouseId: { [Op.in]: whIds }, day: { [Op.gte]: dayOf(from, q.zone), [Op.lte]: dayOf(to, q.zone) } },
      { attributes: ['day', 'warehouseId', 'carrierCodeId', 'inStock'] },
    );
    const stock = new Map<string, { sum: number; days: Set<string> }>();
    for (const d of days) {
      const key = `${monthOf(String(d.day))}:${d.warehouseId}:${d.carrierCodeId ?? ''}`;
      const s = stock.get(key) ?? { sum: 0, days: new Set<string>() };
      s.sum += Number(d.inStock);
      s.days.add(String(d.day));
      stock.set(key, s);
    }
    const warehouses = new Map(
      (await ctx.repo('warehouse', q.ctx).rows({ id: { [Op.in]: whIds } }, { attributes: ['id', 'code', 'name', 'locationId'] })).map((w) => [Number(w.id), w]),
    );
    const locIds = [
      ...new Set(
        [...warehouses.values()]
          .map((w) => w.locationId)
          .filter(Boolean)
          .map(Number),
      ),
    ];
    const locations = new Map(
      (locIds.length ? await ctx.repo('location', q.ctx).rows({ id: { [Op.in]: locIds } }, { attributes: ['id', 'supplierCustomerId'] }) : []).map((l) => [
        Number(l.id),
        l,
      ]),
    );
    const custIds = [
      ...new Set(
        [...locations.values()]
          .map((l) => l.supplierCustomerId)
          .filter(Boolean)
          .map(Number),
      ),
    ];
    const customers = new Map(
      (custIds.length ? await ctx.repo('supplier-customer', q.ctx).rows({ id: { [Op.in]: custIds } }, { attributes: ['id', 'name'] }) : []).map((c) => [
        Number(c.id),
        String(c.name),
      ]),
    );
    const codeIds = [...new Set([...cells.values()].map((c) => c.carrierCodeId).filter((x): x is number => x !== null))];
    const codes = new Map(
      (codeIds.length ? await ctx.repo('carrier-code', q.ctx).rows({ id: { [Op.in]: codeIds } }, { attributes: ['id', 'code'] }) : []).map((c) => [
        Number(c.id),
        String(c.code),
      ]),
    );
    return [...cells.entries()]
      .map(([key, c]) => {
        const w = warehouses.get(c.warehouseId);
        const loc = w?.locationId ? locations.get(Number(w.locationId)) : undefined;
        const s = stock.get(key);
        const averageStock = s && s.days.size ? Math.round((s.sum / s.days.size) * 10) / 10 : null;
        return {
          key,
          month: c.month,
          warehouseId: c.warehouseId,
          warehouseName: String(w?.name ?? ''),
          customer: loc?.supplierCustomerId ? (customers.get(Number(loc.supplierCustomerId)) ?? '') : '',
          carrierCodeId: c.carrierCodeId,
          carrierCode: c.carrierCodeId !== null ? (codes.get(c.carrierCodeId) ?? '') : '',
          lost: c.lost,
          averageStock,
          // lost per 100 carriers of the month's average closing stock (the books held them until written off)
          ratePercent: averageStock ? Math.round((c.lost / averageStock) * 1000) / 10 : null,
        };
      })
      .sort((a, b) => a.month.localeCompare(b.month) || a.warehouseName.localeCompare(b.warehouseName) || a.carrierCode.localeCompare(b.carrierCode));
  }

  ctx.reports.define<Params, Row>({
    name: 'inventory.loss',
    title: 'inventory.title.loss',
    calls: { list: '/inventory/loss', export: '/inventory/loss/export' },
    parameters: [
      { name: 'warehouseId', type: 'ref', label: 'fields.warehouse', ref: { resource: 'warehouse', label: 'name' } },
      { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } },
      timeRange({ defaultDays: 365, maxDays: 731 }),
    ],
    columns: [
      { key: 'month', label: 'inventory.col.month', width: 10 },
      { key: 'warehouseName', label: 'fields.warehouse', width: 18 },
      { key: 'customer', label: 'inventory.col.customer', width: 18 },
      { key: 'carrierCode', label: 'fields.carrierCode', width: 14 },
      { key: 'lost', label: 'inventory.col.lost', type: 'int', width: 10 },
      { key: 'averageStock', label: 'inventory.col.averageStock', type: 'decimal', width: 12 },
      { key: 'ratePercent', label: 'inventory.col.lossRate', unit: 'units.percent', type: 'decimal', width: 12 },
    ],
    rowKey: 'key',
    chart: { type: 'bar', x: 'month', y: ['lost'] },
    async rows(q, w) {
      const all = await lossRows(q);
      return { list: all.slice(w.offset, w.offset + w.limit), total: all.length };
    },
    async *scan(q) {
      yield await lossRows(q);
    },
  });
}
