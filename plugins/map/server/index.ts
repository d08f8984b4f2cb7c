/**
 * Map calls (SPEC §7 "Map"): positions for the live map, one point's detail card, track
 * histories (GPS, and mix = beacon + GPS) with their exports (PDF report, xlsx of the points,
 * one xlsx per sensor), and drawn routes. /admin
 * variants span every organisation of a platform user. Positions come from the telemetry
 * plugin's derived state; tracks from its TelemetryStore.
 */
import { ApiError, ErrorCode, STREAMED, definePlugin, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import type { MapApi } from './api';
import { mapDetail } from './detail';
import { history, parseHistory, type HistoryAnswer } from './history';
import { defineHistoryExports, historyOf } from './history-export';
import { writeHistoryPdf, type ReportSubject } from './history-pdf';
import { mapList } from './map-list';

function install(ctx: PluginServerContext): void {
  const db = ctx.database;
  const telemetry = ctx.use('telemetry');
  const store = () => telemetry.requireStore();
  const api: MapApi = { history: (call, q) => history(ctx, store(), call, q) };
  ctx.provide('map', api);
  ctx.addCall({ path: '/map/list', handler: ({ body, ctx: call }) => mapList(ctx, db, call, body, false) });
  ctx.addCall({ path: '/map/list/admin', handler: ({ body, ctx: call }) => mapList(ctx, db, call, body, true) });
  ctx.addCall({ path: '/map/gps', handler: ({ body, ctx: call }) => mapList(ctx, db, call, { ...body, kind: 2 }, false) });
  ctx.addCall({ path: '/map/gps/admin', handler: ({ body, ctx: call }) => mapList(ctx, db, call, { ...body, kind: 2 }, true) });
  ctx.addCall({ path: '/map/log', handler: ({ body, ctx: call }) => mapDetail(ctx, db, call, body) });
  ctx.addCall({
    path: '/map/route',
    handler: async ({ body, ctx: call }) => (await mapList(ctx, db, call, { ...body, kind: [] }, false)).routes,
  });
  for (const [path, mix] of [
    ['/map/history', false],
    ['/map/history/admin', false],
    ['/map/history/mix', true],
    ['/map/history/mix/admin', true],
    ['/map/history/mix/all', true],
  ] as const) {
    ctx.addCall({ path, handler: ({ body, ctx: call }) => history(ctx, store(), call, parseHistory(body, mix)) });
    // SPEC "exports as pdf and itext": one server-drawn PDF report under both names (itext is
    // the original product's PDF library; the document is the same)
    for (const kind of ['pdf', 'itext']) {
      ctx.addCall({
        path: `${path}/export/${kind}`,
        // minutes east of UTC for the printed times (the history's own parameters are parseHistory's)
        input: { utcOffset: { type: 'int', min: -840, max: 840, default: 0 } },
        async handler({ body, input, ctx: call, res }) {
          const h = await history(ctx, store(), call, parseHistory(body, mix));
          const subject = await reportSubject(ctx, call, h);
          const name = (subject.carrierSn ?? subject.gpsSn ?? 'history').replace(/[^\w.-]+/g, '_');
          res.status(200);
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Disposition', `attachment; filename="${name}-${h.from.slice(0, 10)}-${h.to.slice(0, 10)}.pdf"`);
          await writeHistoryPdf(res, h, { language: call.language, t: ctx.t, utcOffset: input.utcOffset, subject });
          return STREAMED;
        },
      });
    }
  }
  // the xlsx exports (`<history>/export`, `/export/mix`, `/export/<sensor>`) are report
  // definitions written by the server's one xlsx writer (SPEC "as blobs for mix, temperature,
  // humidity, shock, pressure")
  defineHistoryExports(ctx, historyOf(ctx, store));
}

/** names printed on the report: the carrier's serial, name and carrier code, the devices */
async function reportSubject(ctx: PluginServerContext, call: RequestContext, h: HistoryAnswer): Promise<ReportSubject> {
  const out: ReportSubject = { carrierSn: h.subject.carrierSn, carrierName: null, carrierCode: null, gpsSn: h.subject.gpsSn, beaconMac: h.subject.beaconMac };
  if (h.subject.carrierId === null) return out;
  const carrier = await ctx.repo('carrier', call).get({ id: h.subject.carrierId });
  out.carrierName = (carrier.name as string | null) ?? null;
  if (carrier.carrierCodeId) {
    const code = (await ctx.repo('carrier-code', call).findAll({ where: { id: carrier.carrierCodeId }, attributes: ['code'], raw: true })) as unknown as Array<{
      code: string;
    }>;
    out.carrierCode = code[0]?.code ?? null;
  }
  return out;
}

export default definePlugin({
  id: 'map',
  dependsOn: ['telemetry'],
  provides: ['map'],
  // its readers take the server's database as an argument they do not use (rows through ctx.repo): to be dropped
  ownTables: 'passes the server database to its readers (unused by them)',
  server: install,
});
