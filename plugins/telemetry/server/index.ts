/**
 * Telemetry (issue "Telemetry ingest"): the in-process ingest worker with the derived-state
 * engine, alert processing and the notification feed, the live event stream, the data-points
 * calls and the state table. docs/TELEMETRY.md ("Derived state and rules") documents it.
 */
import { definePlugin } from '@rti/server/plugin-api';
import { installAlertCalls } from './alert-calls';
import { installDataPointCalls } from './data-point-calls';
import { installEventStream } from './event-stream';
import { installIngestCalls } from './ingest-calls';
import { installRuntime } from './runtime';
import { stateMigration } from './state-table';

export default definePlugin({
  id: 'telemetry',
  server(ctx) {
    ctx.addMigration(stateMigration);
    const rt = installRuntime(ctx);
    installAlertCalls(ctx, rt.bus);
    installEventStream(ctx, rt.bus);
    installDataPointCalls(ctx, () => rt.store);
    installIngestCalls(ctx, rt);
  },
});

export { telemetryRuntime } from './runtime';
