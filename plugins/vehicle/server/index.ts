/**
 * Vehicles and locating (SPEC §2 home group, §7 "Tracking service" and the map screenshot
 * call): vehicle list and live positions, a vehicle's track, trips and alarms, the locating
 * centre's carrier search, the GPS report with its export, and the data of the report-mail
 * screenshot pages. Reads the telemetry plugin's state and store through the scoped
 * repositories of the caller; permission codes come from the paths (ApiJimiList, …).
 */
import { definePlugin, type PluginServerContext } from '@rti/server/plugin-api';
import { ALARM_INPUT, vehicleAlarms } from './alarms';
import { defineGpsReport } from './gps-report';
import { LOCATE_INPUT, locate } from './locating';
import { screenShot } from './screen-shot';
import { TRACK_INPUT, vehicleHistory, vehicleTrips } from './track';
import { VEHICLE_FILTER, vehicleList, vehiclePositions, vehicleRows } from './vehicles';

function install(ctx: PluginServerContext): void {
  const db = ctx.database;
  // declared inputs (docs/PLUGINS.md "Declared call inputs"); time ranges are the shared `time` parameter
  ctx.addCall({ path: '/jimi/list', input: VEHICLE_FILTER, paging: true, handler: ({ input, ctx: call }) => vehicleList(ctx, db, call, input) });
  ctx.addCall({ path: '/jimi/gps', input: VEHICLE_FILTER, handler: ({ input, ctx: call }) => vehiclePositions(ctx, db, call, input) });
  ctx.addCall({
    path: '/jimi/list/alarm',
    input: ALARM_INPUT,
    paging: true,
    handler: ({ body, input, ctx: call }) => vehicleAlarms(ctx, db, call, body, input),
  });
  ctx.addCall({ path: '/jimi/transport/order/list', input: TRACK_INPUT, handler: ({ body, input, ctx: call }) => vehicleTrips(ctx, db, call, body, input) });
  ctx.addCall({ path: '/jimi/history', input: TRACK_INPUT, handler: ({ body, input, ctx: call }) => vehicleHistory(ctx, db, call, body, input) });
  ctx.addCall({ path: '/jimi/carrier/gps', input: LOCATE_INPUT, handler: ({ input, ctx: call }) => locate(ctx, db, call, input) });
  // re-reads master data (vehicles, trackers, warehouses) into the live tracking engine, e.g.
  // after a bulk import, instead of waiting for the next change-driven refresh
  ctx.addCall({
    path: '/jimi/synchronize',
    async handler({ ctx: call }) {
      await ctx.use('telemetry').refresh();
      return { vehicles: (await vehicleRows(ctx, db, call, {})).length, time: new Date().toISOString() };
    },
  });
  // /gps/report/list, /gps/report/export and the "GPS report mail" task type
  defineGpsReport(ctx);
  ctx.addCall({ path: '/map/history/screen/shot', handler: ({ body, ctx: call }) => screenShot(ctx, db, call, body) });
}

export default definePlugin({
  id: 'vehicle',
  dependsOn: ['telemetry', 'map'],
  // its readers take the server's database as an argument they do not use (rows through ctx.repo): to be dropped
  ownTables: 'passes the server database to its readers (unused by them)',
  server: install,
});
