/**
 * Map calls (SPEC §7 "Map"): positions for the live map, one point's detail card, track
 * histories (GPS, and mix = beacon + GPS) with their xlsx exports, and drawn routes. /admin
 * variants span every organisation of a platform user. Positions come from the telemetry
 * plugin's derived state; tracks from its TelemetryStore.
 */
import { ApiError, ErrorCode, STREAMED, definePlugin, type PluginServerContext } from '@rti/server/plugin-api';
import { telemetryRuntime } from '../../telemetry/server/runtime';
import { mapDetail } from './detail';
import { history, parseHistory } from './history';
import { writeHistoryXlsx } from './history-export';
import { mapList } from './map-list';

function install(ctx: PluginServerContext): void {
  const db = ctx.database;
  const store = () => {
    const s = telemetryRuntime(db)?.store;
    if (!s) throw new ApiError(ErrorCode.internal, 'server.errors.10000', {}, 503);
    return s;
  };
  ctx.addCall({ path: '/map/list', handler: ({ body, ctx: call }) => mapList(ctx, db, call, body, false) });
  ctx.addCall({ path: '/map/list/admin', handler: ({ body, ctx: call }) => mapList(ctx, db, call, body, true) });
  ctx.addCall({ path: '/map/gps', handler: ({ body, ctx: call }) => mapList(ctx, db, call, { ...body, kind: 2 }, false) });
  ctx.addCall({ path: '/map/gps/admin', handler: ({ body, ctx: call }) => mapList(ctx, db, call, { ...body, kind: 2 }, true) });
  ctx.addCall({ path: '/map/log', handler: ({ body, ctx: call }) => mapDetail(ctx, db, call, body) });
  ctx.addCall({
    path: '/map/route',
    handler: async ({ body, ctx: call }) => (await mapList(ctx, db, call, { ...body, kind: [] }, false)).routes,
  });
  for (const [path, mix] of [['/map/history', false], ['/map/history/admin', false], ['/map/history/mix', true], ['/map/history/mix/admin', true], ['/map/history/mix/all', true]] as const) {
    ctx.addCall({ path, handler: ({ body, ctx: call }) => history(ctx, store(), call, parseHistory(body, mix)) });
    ctx.addCall({
      path: `${path}/export`,
      async handler({ body, ctx: call, res }) {
        const h = await history(ctx, store(), call, parseHistory(body, mix));
        await writeHistoryXlsx(res, h, mix ? 'history-mix' : 'history');
        return STREAMED;
      },
    });
  }
}

export default definePlugin({ id: 'map', server: install });
