/**
 * Partner balances (issue 19 item 5): carriers held per partner — the supplier/customer owning
 * the location of a warehouse — today (carriers standing there now, inventory's rule) and over
 * time (inventory's daily closing snapshots), the days held beyond the partner's free period
 * (resource pool-partner-terms, else DEFAULT_FREE_DAYS), and a monthly statement per partner
 * from the in/out history (xlsx through the report export, PDF through `/pool-analytics/partner-statement/pdf`,
 * mailed by the task type partnerStatementMail).
 */
import { Enums } from '@rti/metadata';
import {
  DAY_MS,
  STREAMED,
  dayOf,
  dayStart,
  formatTime,
  invalid,
  timeRange,
  type Language,
  type PluginServerContext,
  type ReportQuery,
  type RequestContext,
  type TimeRange,
  type Zone,
} from '@rti/server/plugin-api';
import { PDF_COLORS, openPdf, pdfTable } from '@rti/server/pdf';
import { IN_STOCK, OFF_BOOKS } from '@rti/plugin-inventory/figures';
import { Op, col, fn, literal } from 'sequelize';
import type { Writable } from 'node:stream';
import { K, MAX_DAYS, codesOf, once, page, partnerParam, partnersOf, round, toDays, warehousesOf, type Partner, type Row, type Warehouse } from './shared';

const IN = Enums.inoutDirection.inbound;
const OUT = Enums.inoutDirection.outbound;
/** visit lines a statement lists at most */
const MAX_LINES = 20_000;

const standingWhere = { transportStatus: { [Op.in]: IN_STOCK }, status: { [Op.or]: [{ [Op.notIn]: OFF_BOOKS }, { [Op.is]: null }] } };

/** The caller's warehouses that belong to a partner, grouped by partner. */
async function partnered(ctx: PluginServerContext, call: RequestContext, partnerId?: number) {
  const whs = [...(await warehousesOf(ctx, call, { partnerId })).values()].filter((w) => w.partnerId !== null);
  const partners = await partnersOf(ctx, call, [...new Set(whs.map((w) => w.partnerId!))]);
  return { whs: whs.filter((w) => partners.has(w.partnerId!)), partners };
}

// ---------------------------------------------------------------- today

export interface BalanceRow {
  partnerId: number;
  code: string;
  name: string;
  type: number;
  freeDays: number;
  warehouses: number;
  held: number;
  overFree: number;
  excessDays: number;
  oldestDays: number | null;
}

export async function balanceRows(ctx: PluginServerContext, call: RequestContext, partnerId: number | undefined, now = Date.now()): Promise<BalanceRow[]> {
  const { whs, partners } = await partnered(ctx, call, partnerId);
  const rows = new Map<number, BalanceRow>();
  for (const p of partners.values()) {
    const ws = whs.filter((w) => w.partnerId === p.id);
    if (ws.length)
      rows.set(p.id, {
        partnerId: p.id,
        code: p.entCode ?? '',
        name: p.name,
        type: p.type,
        freeDays: p.freeDays,
        warehouses: ws.length,
        held: 0,
        overFree: 0,
        excessDays: 0,
        oldestDays: null,
      });
  }
  const carriers = ctx.repo('carrier', call);
  const t = carriers.epochDays('inboundTime');
  const nowDays = toDays(now);
  // one grouped read per distinct free period (a handful), each carrier's days beyond it summed in SQL
  const byFree = new Map<number, Warehouse[]>();
  for (const w of whs) {
    const fd = partners.get(w.partnerId!)!.freeDays;
    const list = byFree.get(fd);
    if (list) list.push(w);
    else byFree.set(fd, [w]);
  }
  for (const [free, ws] of byFree) {
    const cutoff = nowDays - free;
    const owner = new Map(ws.map((w) => [w.id, w.partnerId!]));
    const ids = [...owner.keys()];
    for (let i = 0; i < ids.length; i += 1000) {
      const got = await carriers.rows(
        { ...standingWhere, warehouseId: { [Op.in]: ids.slice(i, i + 1000) } },
        {
          attributes: [
            'warehouseId',
            [fn('COUNT', col('id')), 'n'],
            [literal(`SUM(CASE WHEN ${t} < ${cutoff} THEN 1 ELSE 0 END)`), 'over'],
            [literal(`SUM(CASE WHEN ${t} < ${cutoff} THEN ${cutoff} - ${t} ELSE 0 END)`), 'excess'],
            [literal(`MIN(${t})`), 'oldest'],
          ],
          group: ['warehouseId'],
        },
      );
      for (const g of got) {
        const r = rows.get(owner.get(Number(g.warehouseId))!)!;
        r.held += Number(g.n);
        r.overFree += Number(g.over ?? 0);
        r.excessDays += Number(g.excess ?? 0);
        if (g.oldest !== null && g.oldest !== undefined) r.oldestDays = Math.max(r.oldestDays ?? 0, nowDays - Number(g.oldest));
      }
    }
  }
  return [...rows.values()]
    .map((r) => ({ ...r, excessDays: round(r.excessDays, 1), oldestDays: r.oldestDays === null ? null : round(r.oldestDays, 1) }))
    .sort((a, b) => b.held - a.held || a.name.localeCompare(b.name));
}

// ---------------------------------------------------------------- over time

interface HistoryParams {
  time: TimeRange;
  partnerId?: number;
}
interface HistoryRow {
  day: string;
  partner: string;
  held: number;
  inbound: number;
  outbound: number;
}

async function historyRows(ctx: PluginServerContext, q: ReportQuery<HistoryParams>): Promise<HistoryRow[]> {
  const { whs, partners } = await partnered(ctx, q.ctx, q.params.partnerId);
  if (!whs.length) return [];
  const snaps = ctx.repo('inventory-snapshot', q.ctx);
  const from = dayOf(q.params.time.from, q.zone);
  const to = dayOf(q.params.time.to, q.zone);
  const got = await snaps.rows(
    { day: { [Op.gte]: from, [Op.lte]: to }, warehouseId: { [Op.in]: whs.map((w) => w.id) } },
    {
      attributes: [
        'day',
        [fn('SUM', col(snaps.column('inStock'))), 'held'],
        [fn('SUM', col(snaps.column('inbound'))), 'inbound'],
        [fn('SUM', col(snaps.column('outbound'))), 'outbound'],
      ],
      group: ['day'],
      order: [['day', 'ASC']],
    },
  );
  const partner = q.params.partnerId ? (partners.get(q.params.partnerId)?.name ?? '') : q.t(`${K}.allPartners`);
  return got.map((r) => ({
    day: String(r.day).slice(0, 10),
    partner,
    held: Number(r.held ?? 0),
    inbound: Number(r.inbound ?? 0),
    outbound: Number(r.outbound ?? 0),
  }));
}

// ---------------------------------------------------------------- monthly statement

interface StatementParams {
  month?: string;
  partnerId?: number;
  /** a partner's code (entCode) or name: a mail task's row names its partner so (remark "partner: <code>") */
  partnerCode?: string;
}

/** The partner a task-config row names in its remark ("partner: S1"), else every partner. */
export const partnerOfTask = (remark: unknown): string | undefined => {
  const hit = typeof remark === 'string' ? /^\s*partner\s*:\s*(.+?)\s*$/im.exec(remark) : null;
  return hit ? hit[1] : undefined;
};
export interface Visit {
  warehouseId: number;
  carrierId: number;
  carrierCodeId: number | null;
  start: number;
  end: number | null;
  /** the in/out row of the arrival of a visit received in the month; null for one open at its start */
  rowId: number | null;
}
export interface StatementLine {
  partner: string;
  warehouse: string;
  sn: string;
  code: string;
  arrived: number;
  left: number | null;
  heldDays: number;
  excessDays: number;
}
export interface StatementRow {
  key: string;
  month: string;
  partnerId: number;
  partner: string;
  freeDays: number;
  code: string;
  opening: number;
  received: number;
  returned: number;
  closing: number;
  carrierDays: number;
  excessDays: number;
  overFree: number;
  /** the longest visits beyond the free period (export and PDF; the list call answers none) */
  lines: StatementLine[];
}

/**
 * The month asked for ("YYYY-MM"), else the last full month; its first instant and the next
 * month's — the organisation's months, cut at midnight in its time zone.
 */
export function monthRange(month: string | undefined, now = Date.now(), zone: Zone = 'UTC'): { month: string; from: number; to: number } {
  let m = month;
  if (m === undefined) {
    const [y, mo] = dayOf(now, zone).split('-').map(Number);
    m = new Date(Date.UTC(y, mo - 2, 1)).toISOString().slice(0, 7);
  }
  const hit = /^(\d{4})-(\d{2})$/.exec(m);
  if (!hit || Number(hit[2]) < 1 || Number(hit[2]) > 12 || Number(hit[1]) < 2000) throw invalid('format', 'month');
  const next = new Date(Date.UTC(Number(hit[1]), Number(hit[2]), 1)).toISOString().slice(0, 10);
  return { month: m, from: dayStart(`${m}-01`, zone), to: dayStart(next, zone) };
}

const overlap = (a: number, b: number, c: number, d: number) => Math.max(0, Math.min(b, d) - Math.max(a, c));

/**
 * (warehouse, carrier) groups one read of a statement answers at most: the statement holds one
 * chunk's visits at a time (a warehouse, or a carrier range of a large one), never the pool's.
 */
export const STATEMENT_CHUNK = 20_000;

/**
 * Visits overlapping [from, to) at the given warehouses, one chunk at a time: per warehouse, in
 * carrier order, `chunk` (warehouse, carrier) groups of the rows before the month — each answering
 * only the visit open at the month's start (its last row before the month an arrival: the time
 * of that arrival, else null) — then the month's rows of the same carriers, in carrier and time
 * order. Both reads run through the covering index (org, warehouse, carrier, time, direction,
 * code): no table read, the groups in index order, the month's rows sorted only where carrier and
 * time are equal (by row id), its end bound unindexed on SQLite (timeRange).
 * `rowId` is the arriving row of a visit received in the month (null: open at the start).
 */
export async function* visitsOf(
  ctx: PluginServerContext,
  call: RequestContext,
  whIds: number[],
  from: number,
  to: number,
  chunk = STATEMENT_CHUNK,
): AsyncGenerator<Visit[]> {
  const repo = ctx.repo('carrier-inout', call);
  const time = repo.quoted('confirmTime');
  const dir = repo.quoted('direction');
  // the last row is an arrival when no departure is as late (a row is one or the other): its time then is the visit's start
  const lastRow = `MAX(${time})`;
  const lastOut = `MAX(CASE WHEN ${dir} = ${OUT} THEN ${time} END)`;
  const isOpen = `${lastOut} IS NULL OR ${lastOut} < ${lastRow}`;
  const opened = literal(`CASE WHEN ${isOpen} THEN ${repo.epochDaysOf(lastRow)} END`);
  const month = repo.timeRange('confirmTime', from, to - 1);
  const before = (wh: number, after: number) =>
    repo.rows(
      { warehouseId: wh, carrierId: { [Op.gt]: after }, confirmTime: { [Op.lt]: new Date(from) } },
      {
        attributes: ['carrierId', [fn('MAX', col(repo.column('carrierCodeId'))), 'code'], [opened, 'lastIn']],
        group: ['carrierId'],
        // only the groups whose visit is open at the month's start come back: at a customer's warehouses,
        // which carriers pass through, most groups are visits that ended before it
        having: literal(isOpen),
        order: [['carrierId', 'ASC']],
        limit: chunk,
      },
    );
  // the month's rows straight from the driver (a busy month: 10 rows a carrier, Sequelize's per-row handling was most of the read)
  const moves = (wh: number, after: number, last: number | undefined) =>
    repo.driverRows(
      ['id', 'carrierId', 'carrierCodeId', 'direction', 'confirmTime'],
      { warehouseId: wh, carrierId: last === undefined ? { [Op.gt]: after } : { [Op.gt]: after, [Op.lte]: last }, ...month },
      [
        ['carrierId', 'ASC'],
        ['confirmTime', 'ASC'],
        ['id', 'ASC'],
      ],
    );
  // the next chunk's reads are asked for before this chunk's visits are built: the database reads while the server computes
  type Read = { wh: number; after: number; groups: Promise<Row[]> };
  const read = (wh: number, after: number): Read => ({ wh, after, groups: before(wh, after) });
  let i = 0;
  let next: Read | undefined = whIds.length ? read(whIds[0], 0) : undefined;
  while (next) {
    const { wh, after } = next;
    const groups = await next.groups;
    const last = groups.length >= chunk ? Number(groups[groups.length - 1].carrierId) : undefined;
    const monthRows = moves(wh, after, last);
    next = last !== undefined ? read(wh, last) : ++i < whIds.length ? read(whIds[i], 0) : undefined;
    next?.groups.catch(() => undefined); // awaited on the next turn; a failure of this chunk must not leave it unhandled
    const rows = await monthRows;
    const visits: Visit[] = [];
    const open = new Map<number, Visit>();
    for (const g of groups) {
      if (g.lastIn === null || g.lastIn === undefined) continue;
      const v: Visit = {
        warehouseId: wh,
        carrierId: Number(g.carrierId),
        carrierCodeId: g.code === null ? null : Number(g.code),
        start: Number(g.lastIn) * DAY_MS,
        end: null,
        rowId: null,
      };
      visits.push(v);
      open.set(v.carrierId, v);
    }
    for (const m of rows) {
      const carrier = Number(m.carrierId);
      const at = new Date(m.confirmTime as string).getTime();
      const cur = open.get(carrier);
      if (Number(m.direction) === IN) {
        if (cur) continue; // a second arrival without a departure: the visit goes on
        const v: Visit = {
          warehouseId: wh,
          carrierId: carrier,
          carrierCodeId: m.carrierCodeId === null ? null : Number(m.carrierCodeId),
          start: at,
          end: null,
          rowId: Number(m.id),
        };
        visits.push(v);
        open.set(carrier, v);
      } else if (cur) {
        cur.end = at;
        open.delete(carrier);
      }
    }
    yield visits;
  }
}

interface Line {
  row: StatementRow;
  v: Visit;
  held: number;
  excess: number;
}
/**
 * Longest beyond the free period first; equal ones: the visits open at the month's start by
 * warehouse and carrier, then those received in the month in the order of their arrival. Below 0
 * when a visit beyond the free period by `excess` days comes before line `b`, above 0 after it.
 */
const against = (excess: number, x: Visit, b: Line) => {
  if (b.excess !== excess) return b.excess - excess;
  const y = b.v;
  if (x.rowId === null || y.rowId === null) return x.rowId === y.rowId ? x.warehouseId - y.warehouseId || x.carrierId - y.carrierId : x.rowId === null ? -1 : 1;
  return x.start - y.start || x.rowId - y.rowId;
};
const longestFirst = (a: Line, b: Line) => against(a.excess, a.v, b);

export async function statementRows(
  ctx: PluginServerContext,
  call: RequestContext,
  p: StatementParams,
  now = Date.now(),
  o: { chunk?: number; maxLines?: number; lines?: boolean } = {},
): Promise<StatementRow[]> {
  const { month, from, to } = monthRange(p.month, now, await ctx.zoneOf(call.orgId));
  const { whs: every, partners } = await partnered(ctx, call, p.partnerId);
  const named = p.partnerCode;
  const whs = named === undefined ? every : every.filter((w) => [partners.get(w.partnerId!)!.entCode, partners.get(w.partnerId!)!.name].includes(named));
  if (!whs.length) return [];
  // the list answers the figures; the visits beyond the free period are the workbook's second sheet and the PDF's
  const maxLines = o.lines === false ? 0 : (o.maxLines ?? MAX_LINES);
  const whById = new Map(whs.map((w) => [w.id, w]));
  const end = Math.min(to, Math.max(from, now));
  const rows = new Map<string, StatementRow>();
  const codeOf = new Map<StatementRow, number | null>();
  // the visits beyond the free period: the longest `maxLines` kept as the chunks pass (at most twice that held);
  // once cut, a line sorting after the last one kept can never show and is not held at all
  let lines: Line[] = [];
  let floor: Line | undefined;
  const keep = () => {
    lines = lines.sort(longestFirst).slice(0, maxLines);
    floor = lines.length >= maxLines ? lines[lines.length - 1] : undefined;
    return lines;
  };
  for await (const visits of visitsOf(ctx, call, [...whById.keys()], from, to, o.chunk)) {
    // a chunk is one warehouse's: its partner and that partner's rows per code looked up once
    if (!visits.length) continue;
    const partner = partners.get(whById.get(visits[0].warehouseId)!.partnerId!) as Partner;
    const byCode = new Map<number | null, StatementRow>();
    for (const v of visits) {
      let r = byCode.get(v.carrierCodeId);
      if (!r) r = rows.get(`${partner.id}:${v.carrierCodeId ?? ''}`);
      if (!r) {
        const key = `${partner.id}:${v.carrierCodeId ?? ''}`;
        rows.set(
          key,
          (r = {
            key,
            month,
            partnerId: partner.id,
            partner: partner.name,
            freeDays: partner.freeDays,
            code: '',
            opening: 0,
            received: 0,
            returned: 0,
            closing: 0,
            carrierDays: 0,
            excessDays: 0,
            overFree: 0,
            lines: [],
          }),
        );
        codeOf.set(r, v.carrierCodeId);
      }
      byCode.set(v.carrierCodeId, r);
      const stop = v.end ?? end;
      if (v.start < from) r.opening++;
      else r.received++;
      if (v.end !== null) r.returned++;
      else r.closing++;
      const held = overlap(v.start, stop, from, end) / DAY_MS;
      const excess = overlap(v.start + partner.freeDays * DAY_MS, stop, from, end) / DAY_MS;
      r.carrierDays += held;
      r.excessDays += excess;
      if (excess > 0) {
        r.overFree++;
        if (!maxLines || (floor && against(excess, v, floor) > 0)) continue;
        lines.push({ row: r, v, held: (stop - v.start) / DAY_MS, excess });
        if (lines.length >= 2 * maxLines) keep();
      }
    }
  }
  const codes = await codesOf(ctx, call, [...new Set([...codeOf.values()].filter((c): c is number => c !== null))]);
  for (const [r, c] of codeOf) r.code = c === null ? '' : (codes.get(c)?.code ?? '');
  // the visits beyond the free period, longest first, with the carriers' numbers
  const shown = keep();
  const sn = new Map<number, string>();
  const ids = [...new Set(shown.map((l) => l.v.carrierId))];
  const carriers = ctx.repo('carrier', call);
  const batches: Array<Promise<Row[]>> = [];
  for (let i = 0; i < ids.length; i += 1000) batches.push(carriers.rows({ id: { [Op.in]: ids.slice(i, i + 1000) } }, { attributes: ['id', 'sn'] }));
  for (const got of await Promise.all(batches)) for (const c of got) sn.set(Number(c.id), String(c.sn));
  for (const l of shown) {
    l.row.lines.push({
      partner: l.row.partner,
      warehouse: whById.get(l.v.warehouseId)!.name,
      sn: sn.get(l.v.carrierId) ?? String(l.v.carrierId),
      code: l.row.code,
      arrived: l.v.start,
      left: l.v.end,
      heldDays: round(l.held, 1),
      excessDays: round(l.excess, 1),
    });
  }
  return [...rows.values()]
    .map((r) => ({ ...r, carrierDays: round(r.carrierDays, 1), excessDays: round(r.excessDays, 1) }))
    .sort((a, b) => a.partner.localeCompare(b.partner) || a.code.localeCompare(b.code) || a.partnerId - b.partnerId);
}

/** The statement of one partner as a PDF: the figures per carrier code and the visits beyond the free period. */
export async function writeStatementPdf(
  out: Writable,
  rows: StatementRow[],
  o: { language: Language; t: (key: string, p?: Record<string, unknown>) => string; partner: Partner; month: string; zone?: Zone },
): Promise<void> {
  const { doc, txt, done } = openPdf(out, { language: o.language as 'en-US', title: `${o.t(`${K}.statement.title`)} ${o.partner.name} ${o.month}` });
  const C = `${K}.col`;
  doc
    .fontSize(16)
    .fillColor(PDF_COLORS.ink)
    .text(txt(o.t(`${K}.statement.title`)));
  doc
    .moveDown(0.3)
    .fontSize(10)
    .fillColor(PDF_COLORS.text)
    .text(txt(`${o.t('fields.partner')}: ${o.partner.name}${o.partner.entCode ? ` (${o.partner.entCode})` : ''}`));
  doc.text(txt(`${o.t('fields.month')}: ${o.month}    ${o.t('fields.freeDays')}: ${o.partner.freeDays}`));
  doc.moveDown(0.6);
  const sum = (k: keyof StatementRow) => rows.reduce((s, r) => s + Number(r[k] ?? 0), 0);
  const head = ['code', 'opening', 'received', 'returned', 'closing', 'carrierDays', 'excessDays'].map((k) => o.t(`${C}.${k}`));
  const body = rows.map((r) => [
    txt(r.code),
    String(r.opening),
    String(r.received),
    String(r.returned),
    String(r.closing),
    String(r.carrierDays),
    String(r.excessDays),
  ]);
  const total = [
    o.t(`${K}.total`),
    ...(['opening', 'received', 'returned', 'closing'] as const).map((k) => String(sum(k))),
    String(round(sum('carrierDays'), 1)),
    String(round(sum('excessDays'), 1)),
  ];
  pdfTable(doc, [0.22, 0.12, 0.12, 0.12, 0.12, 0.15, 0.15], [head, ...body, total], { header: true });
  const lines = rows.flatMap((r) => r.lines);
  doc
    .moveDown(0.8)
    .fontSize(11)
    .fillColor(PDF_COLORS.ink)
    .text(txt(o.t(`${K}.statement.lines`, { count: lines.length })), doc.page.margins.left);
  doc.moveDown(0.3);
  const day = (v: number | null) => (v === null ? '-' : formatTime(v, o.zone ?? 'UTC', false));
  pdfTable(
    doc,
    [0.2, 0.18, 0.12, 0.17, 0.17, 0.08, 0.08],
    [
      ['warehouse', 'sn', 'code', 'arrived', 'left', 'heldDays', 'excessDays'].map((k) => o.t(`${C}.${k}`)),
      ...lines.map((l) => [txt(l.warehouse), txt(l.sn), txt(l.code), day(l.arrived), day(l.left), String(l.heldDays), String(l.excessDays)]),
    ],
    { header: true },
  );
  doc.end();
  await done;
}

export function definePartners(ctx: PluginServerContext): void {
  const C = `${K}.col`;
  ctx.reports.define<{ partnerId?: number }, BalanceRow>({
    name: 'pool-analytics.partner-balance',
    title: `${K}.balance.title`,
    path: '/pool-analytics/partner-balance',
    parameters: [partnerParam],
    columns: [
      { key: 'code', label: `${C}.code`, width: 14 },
      { key: 'name', label: 'fields.partner', width: 24, link: '/report/pool/partner-history?partnerId={partnerId}' },
      { key: 'type', label: 'fields.type', type: 'enum', enum: 'supplierCustomerType' },
      { key: 'warehouses', label: `${C}.warehouses`, type: 'int' },
      { key: 'held', label: `${C}.held`, type: 'int' },
      { key: 'freeDays', label: 'fields.freeDays', unit: 'days', type: 'int' },
      { key: 'overFree', label: `${C}.overFree`, type: 'int' },
      { key: 'excessDays', label: `${C}.excessDays`, type: 'decimal' },
      { key: 'oldestDays', label: `${C}.oldestDays`, unit: 'days', type: 'decimal' },
    ],
    rowKey: 'partnerId',
    chart: { type: 'bar', x: 'name', y: ['held', 'overFree'] },
    async rows(q, w) {
      return page(await balanceRows(ctx, q.ctx, q.params.partnerId), w);
    },
    scan: (q) => once(balanceRows(ctx, q.ctx, q.params.partnerId)),
  });

  ctx.reports.define<HistoryParams, HistoryRow>({
    name: 'pool-analytics.partner-history',
    title: `${K}.history.title`,
    path: '/pool-analytics/partner-history',
    parameters: [timeRange({ defaultDays: 30, maxDays: MAX_DAYS }), partnerParam],
    columns: [
      { key: 'day', label: 'fields.day', width: 12 },
      { key: 'partner', label: 'fields.partner', width: 24 },
      { key: 'held', label: `${C}.held`, type: 'int' },
      { key: 'inbound', label: `${C}.received`, type: 'int' },
      { key: 'outbound', label: `${C}.returned`, type: 'int' },
    ],
    rowKey: 'day',
    chart: { type: 'line', x: 'day', y: ['held'] },
    async rows(q, w) {
      return page(await historyRows(ctx, q), w);
    },
    scan: (q) => once(historyRows(ctx, q)),
  });

  const lineColumns = [
    { key: 'partner', label: 'fields.partner', width: 20 },
    { key: 'warehouse', label: `${C}.warehouse`, width: 20 },
    { key: 'sn', label: `${C}.sn`, width: 18 },
    { key: 'code', label: `${C}.code`, width: 12 },
    { key: 'arrived', label: `${C}.arrived`, type: 'datetime' as const, width: 20 },
    { key: 'left', label: `${C}.left`, type: 'datetime' as const, width: 20 },
    { key: 'heldDays', label: `${C}.heldDays`, type: 'decimal' as const },
    { key: 'excessDays', label: `${C}.excessDays`, type: 'decimal' as const },
  ];
  const columns = [
    { key: 'month', label: 'fields.month', width: 10 },
    { key: 'partner', label: 'fields.partner', width: 24 },
    { key: 'code', label: `${C}.code`, width: 14 },
    { key: 'freeDays', label: 'fields.freeDays', unit: 'days', type: 'int' as const },
    { key: 'opening', label: `${C}.opening`, type: 'int' as const },
    { key: 'received', label: `${C}.received`, type: 'int' as const },
    { key: 'returned', label: `${C}.returned`, type: 'int' as const },
    { key: 'closing', label: `${C}.closing`, type: 'int' as const },
    { key: 'carrierDays', label: `${C}.carrierDays`, type: 'decimal' as const },
    { key: 'overFree', label: `${C}.overFree`, type: 'int' as const },
    { key: 'excessDays', label: `${C}.excessDays`, type: 'decimal' as const },
  ];
  ctx.reports.define<StatementParams, StatementRow>({
    name: 'pool-analytics.partner-statement',
    title: `${K}.statement.title`,
    path: '/pool-analytics/partner-statement',
    parameters: [
      { name: 'month', type: 'string', label: 'fields.month', maxLength: 7 },
      partnerParam,
      { name: 'partnerCode', type: 'string', label: 'fields.partner', maxLength: 100, hidden: true },
    ],
    columns,
    sheets: [
      { name: `${K}.statement.title`, columns },
      { name: `${K}.statement.linesSheet`, columns: lineColumns, rows: (r: StatementRow) => r.lines },
    ],
    rowKey: 'key',
    chart: { type: 'bar', x: 'partner', y: ['carrierDays', 'excessDays'] },
    async rows(q, w) {
      return page(await statementRows(ctx, q.ctx, q.params, Date.now(), { lines: false }), w);
    },
    scan: (q) => once(statementRows(ctx, q.ctx, q.params)),
    fileName: (q) => `partner-statement-${monthRange(q.params.month, Date.now(), q.zone).month}.xlsx`,
    schedule: {
      taskName: 'partnerStatementMail',
      // the last full month of the organisation (its time zone, as the statement cuts them)
      parameters: ({ now, task, timezone }) => {
        const partnerCode = partnerOfTask(task.remark);
        return { month: monthRange(undefined, now.getTime(), timezone).month, ...(partnerCode ? { partnerCode } : {}) };
      },
      tally: (row: StatementRow) => (row.overFree > 0 ? 'over' : 'within'),
      summary: (run, r) => run.t(`${K}.statement.mail`, { month: r.params.month ?? '', rows: r.rows, over: r.counts.over ?? 0 }),
      empty: (run, p) => run.t(`${K}.statement.empty`, { month: p.month ?? '' }),
    },
  });

  ctx.addCall({
    path: '/pool-analytics/partner-statement/pdf',
    input: { partnerId: { type: 'ref', required: true, label: 'fields.partner' }, month: { type: 'string', maxLength: 7, label: 'fields.month' } },
    async handler({ input, ctx: call, res }) {
      const zone = await ctx.zoneOf(call.orgId);
      const { month } = monthRange(input.month, Date.now(), zone);
      const partner = (await partnersOf(ctx, call, [input.partnerId])).get(input.partnerId);
      if (!partner) throw invalid('refMissing', 'partner');
      const rows = await statementRows(ctx, call, { month, partnerId: input.partnerId });
      res.status(200);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="partner-statement-${partner.id}-${month}.pdf"`);
      await writeStatementPdf(res, rows, { language: call.language, t: (k, p) => ctx.t(call.language, k, p as never), partner, month, zone });
      return STREAMED;
    },
  });
}

export type { Row };
