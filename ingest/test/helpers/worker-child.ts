/**
 * An ingest worker in its own process, for the kill -9 test: external broker, segment store,
 * fixture directory. Prints "ready" once subscribed and its stats as JSON lines every 100 ms.
 */
import path from 'node:path';
import { startIngest } from '../../src/ingest-service';
import { SegmentTelemetryStore } from '../../src/store/segment-store';
import { directory } from './fixtures';

const env = process.env;
const svc = await startIngest({
  store: new SegmentTelemetryStore({ dir: path.join(env.DATA_DIR!, 'segments') }),
  directory: directory(),
  dataDir: env.DATA_DIR!,
  external: { url: env.BROKER_URL!, clientId: env.CLIENT_ID!, group: env.GROUP! },
  pipeline: { lingerMs: 5, batchRows: 500 },
  intake: { maxFramesPerSecond: 0 },
});
await svc.external!.ready;
process.stdout.write('ready\n');
setInterval(() => process.stdout.write(`${JSON.stringify(svc.pipeline.stats())}\n`), 100);
process.once('SIGTERM', () => {
  void svc.stop().then(() => process.exit(0));
});
