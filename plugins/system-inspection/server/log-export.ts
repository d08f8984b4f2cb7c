/**
 * System log export (/system-inspection/system-log/export) as a report definition: the
 * organisation's request log (admin log) and operation log over a time range (default the
 * last 7 days), a sheet each, newest first, at most LOG_EXPORT_CAP rows per sheet, read in
 * keyset pages through the caller's scoped repositories and written by the one xlsx writer.
 */
import { Op } from 'sequelize';
import { parseTimeRange, repositoryScan, timeRange, type PluginServerContext, type ReportColumn, type TimeRange } from '@rti/server/plugin-api';

export const LOG_EXPORT_CAP = 20_000;

/** `time: [from, to]` (ISO or epoch ms, either end optional); default the last 7 days */
export function logRange(body: Record<string, unknown>, now = Date.now()): [Date, Date] {
  const { from, to } = parseTimeRange(body, { defaultDays: 7 }, now);
  return [new Date(from), new Date(to)];
}

/** each log, its sheet (named by the resource, as before) and columns */
const SHEETS = [
  { resource: 'admin-log', columns: ['time', 'operator', 'ip', 'method', 'path', 'responseCode', 'message', 'userAgent'] },
  { resource: 'operation-log', columns: ['time', 'operator', 'ip', 'object', 'action', 'objectName', 'content'] },
];

type LogRow = Record<string, unknown> & { log: string };

export function defineLogExport(ctx: PluginServerContext, path: string): void {
  const sheets = SHEETS.filter((s) => ctx.metadata.resources[s.resource]);
  const column = (c: string): ReportColumn => ({
    key: c,
    label: `fields.${c}`,
    type: c === 'time' ? 'datetime' : undefined,
    width: c === 'message' || c === 'content' || c === 'userAgent' ? 50 : 20,
  });
  ctx.reports.define<{ time: TimeRange }, LogRow>({
    name: 'system-inspection.system-log',
    title: 'menu.log',
    calls: { list: false, export: path },
    parameters: [timeRange({ defaultDays: 7 })],
    columns: sheets[0].columns.map(column),
    // a sheet per log, each read on its own and written after the other
    sheets: sheets.map((s) => ({
      name: s.resource,
      columns: s.columns.map(column),
      async *scan(q) {
        const { from, to } = (q.params as { time: TimeRange }).time;
        let n = 0;
        for await (const rows of repositoryScan(
          ctx.repo(s.resource, q.ctx),
          {
            where: { time: { [Op.between]: [new Date(from), new Date(to)] } },
            order: [
              ['time', 'DESC'],
              ['id', 'DESC'],
            ],
          },
          500,
        )) {
          const take = rows.slice(0, LOG_EXPORT_CAP - n);
          n += take.length;
          yield take.map((r) => ({ ...r, log: s.resource }));
          if (n >= LOG_EXPORT_CAP) return;
        }
      },
    })),
    maxRows: LOG_EXPORT_CAP,
    fileName: () => `system-log-${new Date().toISOString().slice(0, 10)}`,
  });
}
