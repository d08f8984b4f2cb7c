/**
 * Three-batch report (SPEC §3 record "name, date, primary and secondary warehouse, carrier code";
 * page /report/three-batch; SPEC §9 task names 40 and 41).
 *
 * SPEC does not say what the three batches are. Here a record follows one carrier code in a
 * loop between a primary warehouse (say the supplier's plant) and a secondary one (the
 * customer's), and the code's pool there splits into three batches at a day's close:
 *   1. at the primary warehouse (in stock there),
 *   2. on the way (in transit into the primary or into the secondary warehouse),
 *   3. at the secondary warehouse (in stock there),
 * with each warehouse's inbound and outbound of the day — all read from inventory's closing
 * snapshots of that code (today, before it is closed: inventory's live figures).
 *
 * The records are a resource (`/report-three-batch/list`, create, update, delete and the base
 * path `/report-three-batch`; setup screen /report/three-batch/setup); the report is
 * `/report-three-batch/detail` (+ `/export`): every record in the caller's scope, or one (`id`),
 * at `day` — else the record's own date, else yesterday.
 */
import { type PluginServerContext, type ReportQuery } from '@rti/server/plugin-api';
import { figuresReader } from '@rti/plugin-inventory/figures';
import { Op } from 'sequelize';
import { K, closedSums, dayParam, notFuture, num, page, today, yesterday, type Row } from './shared';

interface Params {
  id?: number;
  day?: string;
  carrierCodeId?: number;
}

/** records one answer covers at most */
const MAX_RECORDS = 2000;

export function defineThreeBatch(ctx: PluginServerContext): void {
  const figures = figuresReader(ctx);

  async function rowsOf(q: ReportQuery<Params>): Promise<Row[]> {
    notFuture(q.params.day, q.zone);
    const repo = ctx.repo('report-three-batch', q.ctx);
    const where = { ...(q.params.id ? { id: q.params.id } : {}), ...(q.params.carrierCodeId ? { carrierCodeId: q.params.carrierCodeId } : {}) };
    const records = await repo.serialize(
      await repo.findAll({
        where,
        order: [
          ['name', 'ASC'],
          ['id', 'ASC'],
        ],
        limit: MAX_RECORDS,
      }),
    );
    if (!records.length) return [];
    const dayOf = (r: Row) => q.params.day ?? (r.date && String(r.date).slice(0, 10) <= today(q.zone) ? String(r.date).slice(0, 10) : yesterday(q.zone));
    const days = [...new Set(records.map(dayOf))];
    const warehouses = [...new Set(records.flatMap((r) => [Number(r.primaryWarehouseId), Number(r.secondaryWarehouseId)]))];
    const codes = [...new Set(records.map((r) => Number(r.carrierCodeId)))];
    // closed days from the snapshots, one grouped read
    const cells = new Map<string, Row>();
    for (const s of await closedSums(ctx, q, { day: { [Op.in]: days }, warehouseId: { [Op.in]: warehouses }, carrierCodeId: { [Op.in]: codes } }, [
      'day',
      'warehouseId',
      'carrierCodeId',
    ])) {
      cells.set(`${s.day}:${s.warehouseId}:${s.carrierCodeId}`, s);
    }
    // today, when it has no close yet: the live figures
    if (days.includes(today(q.zone)) && ![...cells.keys()].some((k) => k.startsWith(today(q.zone)))) {
      const { rows } = await figures.byCode(q.ctx, {}, q.t);
      for (const r of rows)
        if (warehouses.includes(r.warehouseId) && codes.includes(Number(r.carrierCodeId)))
          cells.set(`${today(q.zone)}:${r.warehouseId}:${r.carrierCodeId}`, { ...r, inbound: null, outbound: null });
    }
    return records.map((r) => {
      const day = dayOf(r);
      const at = (w: unknown) => cells.get(`${day}:${w}:${r.carrierCodeId}`);
      const p = at(r.primaryWarehouseId);
      const s = at(r.secondaryWarehouseId);
      const atPrimary = Number(p?.inStock ?? 0);
      const onTheWay = Number(p?.inTransitIn ?? 0) + Number(s?.inTransitIn ?? 0);
      const atSecondary = Number(s?.inStock ?? 0);
      const total = atPrimary + onTheWay + atSecondary;
      return {
        id: Number(r.id),
        name: r.name,
        day,
        carrierCodeId: num(r.carrierCodeId),
        carrierCode: r.carrierCodeIdLabel,
        primaryWarehouseId: num(r.primaryWarehouseId),
        primaryWarehouse: r.primaryWarehouseIdLabel,
        secondaryWarehouseId: num(r.secondaryWarehouseId),
        secondaryWarehouse: r.secondaryWarehouseIdLabel,
        atPrimary,
        onTheWay,
        atSecondary,
        total,
        secondaryShare: total ? Math.round((atSecondary / total) * 1000) / 10 : null,
        primaryInbound: num(p?.inbound),
        primaryOutbound: num(p?.outbound),
        secondaryInbound: num(s?.inbound),
        secondaryOutbound: num(s?.outbound),
      };
    });
  }

  ctx.reports.define<Params, Row>({
    name: `${K}.three-batch`,
    title: `${K}.title.threeBatch`,
    calls: { list: '/report-three-batch/detail', export: '/report-three-batch/detail/export' },
    parameters: [
      { name: 'id', type: 'ref', label: `${K}.col.threeBatch`, ref: { resource: 'report-three-batch', label: 'name' } },
      dayParam,
      { name: 'carrierCodeId', type: 'ref', label: 'fields.carrierCode', ref: { resource: 'carrier-code', label: 'code' } },
    ],
    columns: [
      // the record opens on its setup screen
      { key: 'name', label: 'fields.name', width: 20, link: '/report/three-batch/setup/edit/{id}' },
      { key: 'day', label: 'fields.day', width: 12 },
      { key: 'carrierCode', label: 'fields.carrierCode', width: 14 },
      { key: 'primaryWarehouse', label: 'fields.primaryWarehouse', width: 18 },
      { key: 'secondaryWarehouse', label: 'fields.secondaryWarehouse', width: 18 },
      { key: 'atPrimary', label: `${K}.col.atPrimary`, type: 'int', width: 12 },
      { key: 'onTheWay', label: `${K}.col.onTheWay`, type: 'int', width: 12 },
      { key: 'atSecondary', label: `${K}.col.atSecondary`, type: 'int', width: 12 },
      { key: 'total', label: `${K}.col.total`, type: 'int', width: 10 },
      { key: 'secondaryShare', label: `${K}.col.secondaryShare`, unit: 'percent', type: 'decimal', width: 12 },
      { key: 'primaryInbound', label: `${K}.col.primaryInbound`, type: 'int', width: 12 },
      { key: 'primaryOutbound', label: `${K}.col.primaryOutbound`, type: 'int', width: 12 },
      { key: 'secondaryInbound', label: `${K}.col.secondaryInbound`, type: 'int', width: 12 },
      { key: 'secondaryOutbound', label: `${K}.col.secondaryOutbound`, type: 'int', width: 12 },
    ],
    rowKey: 'id',
    chart: { type: 'bar', x: 'name', y: ['atPrimary', 'onTheWay', 'atSecondary'] },
    async rows(q, w) {
      return page(await rowsOf(q), w);
    },
    async *scan(q) {
      yield await rowsOf(q);
    },
    fileName: (q) => `three-batch-${q.params.day ?? yesterday(q.zone)}`,
    schedule: {
      taskName: ['threeBatchReport', 'threeBatchReportMail'],
      parameters: ({ now, timezone }) => ({ day: yesterday(timezone, now.getTime()) }),
      summary: (run, r) => run.t(`${K}.threeBatch.text`, { count: r.rows, date: r.params.day ?? '' }),
      empty: (run) => run.t(`${K}.threeBatch.empty`),
    },
  });
}
