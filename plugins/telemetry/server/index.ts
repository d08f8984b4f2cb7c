/**
 * Telemetry (issue "Telemetry ingest"): the in-process ingest worker with the derived-state
 * engine, alert processing and the notification feed, the live event stream, the data-points
 * calls and the state table. docs/TELEMETRY.md ("Derived state and rules") documents it.
 */
import { ApiError, ErrorCode, definePlugin } from '@rti/server/plugin-api';
import type { TelemetryApi } from './api';
import { installAlertCalls } from './alert-calls';
import { installDataPointCalls } from './data-point-calls';
import { installEventStream } from './event-stream';
import { installIngestCalls } from './ingest-calls';
import { installRuntime } from './runtime';
import { stateMigration } from './state-table';

export default definePlugin({
  id: 'telemetry',
  provides: ['telemetry'],
  server(ctx) {
    ctx.addMigration(stateMigration);
    const rt = installRuntime(ctx);
    installAlertCalls(ctx, rt.bus);
    installEventStream(ctx, rt.bus);
    installDataPointCalls(ctx, () => rt.store);
    installIngestCalls(ctx, rt);
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
    };
    ctx.provide('telemetry', api);
  },
});

export { telemetryRuntime } from './testing';
