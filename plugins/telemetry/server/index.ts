/**
 * Telemetry (issue "Telemetry ingest"): the in-process ingest worker with the derived-state
 * engine, alert processing and the notification feed, the live event stream, the data-points
 * calls, the state table, and GPS configuration sent to trackers with their acknowledgement.
 * docs/TELEMETRY.md ("Derived state and rules", "GPS configuration") documents it.
 */
import { ApiError, ErrorCode, definePlugin } from '@rti/server/plugin-api';
import type { TelemetryApi } from './api';
import { installAlertCalls } from './alert-calls';
import { installDataPointCalls } from './data-point-calls';
import { installEventStream } from './event-stream';
import { installIngestCalls } from './ingest-calls';
import { installGpsConfig } from './gps-config';
import { installGatewayCredentials } from './gateway-credentials';
import { installRuntime } from './runtime';
import { stateMigration } from './state-table';

export default definePlugin({
  id: 'telemetry',
  ownTables:
    'its device state tables and GPS configuration requests; the ingest engine writes device and carrier state for every organisation (platform-wide by design)',
  provides: ['telemetry'],
  server(ctx) {
    ctx.addMigration(stateMigration);
    const rt = installRuntime(ctx);
    installAlertCalls(ctx, rt.bus);
    installEventStream(ctx, rt.bus);
    installDataPointCalls(ctx, () => rt.store);
    installIngestCalls(ctx, rt);
    installGatewayCredentials(ctx);
    const gpsConfig = installGpsConfig(ctx, {
      downlink: () => rt.downlink,
      orgCode: (orgId) => rt.directory?.orgById(orgId)?.code,
      bus: rt.bus,
      timeoutMs: Number(process.env.GPS_CONFIG_TIMEOUT_MS) > 0 ? Number(process.env.GPS_CONFIG_TIMEOUT_MS) : 120_000,
    });
    rt.onConfigAck = (ack) => void gpsConfig.onAck(ack).catch((err) => ctx.log(`configuration answer of ${ack.sn} failed`, err));
    const api: TelemetryApi = {
      get store() {
        return rt.store;
      },
      requireStore() {
        if (!rt.store) throw new ApiError(ErrorCode.internal, 'server.errors.10000', {}, 503);
        return rt.store;
      },
      positions: { carrier: (id) => rt.engine.peekCarrier(id), device: (kind, id) => rt.engine.peekDevice(kind, id) },
      refresh: () => rt.refresh(),
      onInOut: (fn) => rt.sink.onInOut(fn),
      placeCarriers: (moves) => rt.placeCarriers(moves),
      publish: (event) => rt.bus.publish(event),
      onRaised: (fn) => rt.bus.onRaised(fn),
    };
    ctx.provide('telemetry', api);
  },
});

export { telemetryRuntime } from './testing';
