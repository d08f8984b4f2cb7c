/**
 * What is due, and the reminders (SPEC §3 "Maintenance mail reminder", task 50
 * maintenanceExpiryMail):
 *
 * - the due list (`/carrier-asset/due/list` and `/export`): assets not scrapped whose next
 *   maintenance falls within a window of days from today, or — maintenance due by use — whose
 *   carrier has made its asset's trip interval since the last maintenance (within `warnTrips`),
 *   whichever comes first; by area;
 * - the task type `maintenanceExpiryMail`, run by the scheduler on a task-config row's cron in
 *   its organisation: each reminder row (area, mailTo, cc, subject, text, warnDayBegin,
 *   warnDayEnd, warnFrequency) whose frequency has come round mails its recipients the assets of
 *   its area due in its window, through the platform's mail service (file outbox or SMTP), and
 *   records when — so it does not mail again within its frequency. The run's own workbook (the
 *   assets due in the widest window mailed) goes to the task's recipients.
 */
import { Enums } from '@rti/metadata';
import { dayOf, type PluginServerContext, type ReportQuery, type ScheduledRun } from '@rti/server/plugin-api';
import { Op, type WhereOptions } from 'sequelize';
import { addDays, ASSET, type Row } from './common';

export const REMINDER = 'task-mail-maintenance';
const DAY_MS = 86_400_000;
const K = 'maintenance.due';

interface DueParams {
  areaId?: number;
  daysFrom?: number;
  daysTo?: number;
  /** the day the window starts from (tests, the scheduled run): default today in the zone */
  today?: string;
}
export interface DueRow {
  id: number;
  sn: string;
  name: string | null;
  area: string | null;
  placement: string | null;
  responsible: string | null;
  nextMaintenanceDate: string | null;
  daysLeft: number | null;
  /** trips left before maintenance is due by use (negative: overdue); null when not due by use */
  tripsLeft: number | null;
}

const toRow = (a: Row, areas: Map<number, string>, today: string, tripsLeft: number | null): DueRow => ({
  id: Number(a.id),
  sn: String(a.sn),
  name: a.name ?? null,
  area: a.areaId ? (areas.get(Number(a.areaId)) ?? null) : null,
  placement: a.placement ?? null,
  responsible: a.responsible ?? null,
  nextMaintenanceDate: a.nextMaintenanceDate ? String(a.nextMaintenanceDate) : null,
  daysLeft: a.nextMaintenanceDate ? Math.round((Date.parse(`${a.nextMaintenanceDate}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS) : null,
  tripsLeft,
});

const list = (s: unknown): string[] =>
  String(s ?? '')
    .split(/[;,\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);

export function registerReminders(ctx: PluginServerContext): void {
  const live = (p: DueParams): Row => ({ status: { [Op.ne]: Enums.carrierAssetStatus.scrapped }, ...(p.areaId ? { areaId: p.areaId } : {}) });
  const dueWhere = (p: DueParams, today: string): WhereOptions => ({
    ...live(p),
    nextMaintenanceDate: { [Op.gte]: addDays(today, p.daysFrom ?? 0), [Op.lte]: addDays(today, p.daysTo ?? 30) },
  });
  const ATTRS = [
    'id',
    'sn',
    'name',
    'areaId',
    'placement',
    'responsible',
    'nextMaintenanceDate',
    'carrierId',
    'maintainTrips',
    'warnTrips',
    'tripsAtLastMaintenance',
  ];

  /**
   * Assets due by use: a trip interval set, and the carrier's trips since the last maintenance
   * (its cycle count, kept by receipts and gate passes) within `warnTrips` of it. Read in chunks:
   * the assets with an interval, then their carriers' counts.
   */
  async function dueByUse(q: ReportQuery<DueParams>): Promise<Array<{ asset: Row; tripsLeft: number }>> {
    const assets = ctx.repo(ASSET, q.ctx);
    const carriers = ctx.repo('carrier', q.ctx);
    const out: Array<{ asset: Row; tripsLeft: number }> = [];
    let last = 0;
    for (;;) {
      const chunk = await assets.rows(
        { ...live(q.params), maintainTrips: { [Op.gt]: 0 }, id: { [Op.gt]: last } },
        { attributes: ATTRS, order: [['id', 'ASC']], limit: 5000 },
      );
      if (!chunk.length) break;
      last = Number(chunk[chunk.length - 1].id);
      const counts = new Map(
        (await carriers.rows({ id: { [Op.in]: chunk.map((a) => Number(a.carrierId)).filter((n) => n > 0) } }, { attributes: ['id', 'cycleCount'] })).map(
          (c) => [Number(c.id), Number(c.cycleCount) || 0],
        ),
      );
      for (const a of chunk) {
        const used = (counts.get(Number(a.carrierId)) ?? 0) - (Number(a.tripsAtLastMaintenance) || 0);
        const left = Number(a.maintainTrips) - used;
        if (left <= (Number(a.warnTrips) || 0)) out.push({ asset: a, tripsLeft: left });
      }
    }
    return out;
  }

  const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY_MS;
  async function due(q: ReportQuery<DueParams>, window?: { offset: number; limit: number }): Promise<{ list: DueRow[]; total: number }> {
    const today = q.params.today ?? dayOf(Date.now(), q.zone);
    const byDate = await ctx.repo(ASSET, q.ctx).rows(dueWhere(q.params, today), {
      attributes: ATTRS,
      order: [
        ['nextMaintenanceDate', 'ASC'],
        ['id', 'ASC'],
      ],
    });
    const byUse = new Map((await dueByUse(q)).map((u) => [Number(u.asset.id), u]));
    const merged = new Map<number, { asset: Row; tripsLeft: number | null }>();
    for (const a of byDate) merged.set(Number(a.id), { asset: a, tripsLeft: byUse.get(Number(a.id))?.tripsLeft ?? null });
    for (const [id, u] of byUse) if (!merged.has(id)) merged.set(id, u);
    // soonest first: by date, and a use-based due counts as due today
    const key = (m: { asset: Row; tripsLeft: number | null }) =>
      Math.min(m.asset.nextMaintenanceDate ? dayNumber(String(m.asset.nextMaintenanceDate)) : Infinity, m.tripsLeft !== null ? dayNumber(today) : Infinity);
    const all = [...merged.values()].sort((x, y) => key(x) - key(y) || Number(x.asset.id) - Number(y.asset.id));
    const page = window ? all.slice(window.offset, window.offset + window.limit) : all;
    const areaIds = [...new Set(page.map((m) => Number(m.asset.areaId)).filter((n) => n > 0))];
    const areas = new Map(
      (await ctx.repo('dictionary', q.ctx).rows({ id: { [Op.in]: areaIds } }, { attributes: ['id', 'name'] })).map((d) => [Number(d.id), String(d.name)]),
    );
    return { list: page.map((m) => toRow(m.asset, areas, today, m.tripsLeft)), total: all.length };
  }

  ctx.reports.define<DueParams, DueRow>({
    name: 'maintenance.due',
    title: `${K}.title`,
    calls: { list: '/carrier-asset/due/list', export: '/carrier-asset/due/export' },
    parameters: [
      {
        name: 'areaId',
        type: 'ref',
        label: 'fields.assetArea',
        ref: { resource: 'dictionary', label: 'name', filter: { category: Enums.dictionaryCategory.area } },
      },
      { name: 'daysFrom', type: 'int', label: `${K}.daysFrom`, min: -3650, max: 3650, default: 0 },
      { name: 'daysTo', type: 'int', label: `${K}.daysTo`, min: -3650, max: 3650, default: 30 },
      { name: 'today', type: 'date', label: 'fields.nextMaintenanceDate', hidden: true },
    ],
    columns: [
      { key: 'sn', label: 'fields.sn', width: 18 },
      { key: 'name', label: 'fields.name', width: 18 },
      { key: 'area', label: 'fields.assetArea', width: 14 },
      { key: 'placement', label: 'fields.placement', width: 18 },
      { key: 'responsible', label: 'fields.responsible', width: 12 },
      { key: 'nextMaintenanceDate', label: 'fields.nextMaintenanceDate', width: 14 },
      { key: 'daysLeft', label: `${K}.daysLeft`, type: 'int', width: 10 },
      { key: 'tripsLeft', label: `${K}.tripsLeft`, type: 'int', width: 10 },
    ],
    rowKey: 'id',
    rows: (q, w) => due(q, w),
    maxRows: 100_000,
    fileName: () => `maintenance-due-${new Date().toISOString().slice(0, 10)}`,
  });

  ctx.reports.defineTask({
    id: 'maintenanceExpiryMail',
    report: 'maintenance.due',
    async run(run: ScheduledRun) {
      const today = dayOf(run.now.getTime(), run.timezone);
      const reminders = ctx.repo(REMINDER, run.ctx);
      const mail = ctx.tryUse('mail');
      let mailed = 0;
      let assets = 0;
      let widest = null as { daysFrom: number; daysTo: number } | null;
      for (const r of await reminders.rows({}, { order: [['id', 'ASC']] })) {
        // not again within its frequency
        const last = r.lastSentAt ? new Date(r.lastSentAt as string).getTime() : null;
        if (last !== null && run.now.getTime() - last < Number(r.warnFrequency || 1) * DAY_MS - 60_000) continue;
        const params: DueParams = {
          areaId: r.areaId ? Number(r.areaId) : undefined,
          daysFrom: Number(r.warnDayBegin ?? 0),
          daysTo: Number(r.warnDayEnd ?? 30),
          today,
        };
        const { list: rows, total } = await due({ params, ctx: run.ctx, zone: run.timezone, language: run.language, t: run.t }, { offset: 0, limit: 1000 });
        if (!rows.length) continue;
        const lines = rows.map((a) =>
          a.tripsLeft !== null && (a.daysLeft === null || a.daysLeft > (params.daysTo ?? 30))
            ? run.t('maintenance.reminders.lineTrips', { sn: a.sn, name: a.name ?? '-', trips: a.tripsLeft, placement: a.placement ?? '-' })
            : run.t('maintenance.reminders.line', { sn: a.sn, name: a.name ?? '-', date: a.nextMaintenanceDate, placement: a.placement ?? '-' }),
        );
        const more = total > rows.length ? [`… (+${total - rows.length})`] : [];
        const text = [r.text ? String(r.text) : '', ...lines, ...more].filter(Boolean).join('\n');
        if (mail) await mail.send({ to: [...list(r.mailTo), ...list(r.cc)], subject: String(r.subject), text });
        await reminders.updateWhere({ lastSentAt: run.now }, { id: r.id });
        widest = { daysFrom: Math.min(widest?.daysFrom ?? Infinity, params.daysFrom!), daysTo: Math.max(widest?.daysTo ?? -Infinity, params.daysTo!) };
        mailed++;
        assets += total;
      }
      if (!mailed || !widest) return { kind: 'empty', reason: run.t('maintenance.reminders.nothingDue') };
      const book = await ctx.reports.workbook('maintenance.due', { ...widest, today }, run.ctx, { zone: run.timezone });
      return {
        kind: 'report',
        report: {
          title: book.title,
          text: run.t('maintenance.reminders.sent', { count: mailed, assets }),
          attachment: { filename: `${book.fileName}.xlsx`, content: book.content },
          rows: book.rows,
        },
      };
    },
  });
}
