/**
 * A second API instance in its own process (the import takeover and cluster-steps tests), so it can be killed
 * (SIGKILL: no close, no last heartbeat, a transaction cut wherever it was). It joins the
 * test's database and object store with its own data folder and instance id, imports rows
 * slowly (a before-create hook waits TEST_ROW_DELAY_MS per row: parts of 50 rows), prints one
 * `READY {json}` line and serves until killed or SIGTERM.
 */
import { createServer } from '../../src/index';
import type { StorageConfig } from '../../src/files/storage';
import { metadataWithCodes } from '../import-fixtures';

const env = process.env;
const server = await createServer({
  databaseUrl: env.TEST_DATABASE_URL!,
  plugins: false,
  logError: (m, e) => console.error('[import-instance]', m, e ?? ''),
  metadata: metadataWithCodes(),
  config: {
    dataDir: env.TEST_DATA_DIR!,
    instanceId: env.TEST_INSTANCE_ID!,
    storage: JSON.parse(env.TEST_STORAGE!) as StorageConfig,
    importHeartbeatMs: Number(env.TEST_HEARTBEAT_MS),
    importStaleMs: Number(env.TEST_STALE_MS),
  },
});
const delay = Number(env.TEST_ROW_DELAY_MS ?? 0);
if (delay) server.hooks.before('create', 'device-beacon', () => new Promise((r) => setTimeout(r, delay)));
const { url } = await server.listen(0);
process.stdout.write(`READY ${JSON.stringify({ url, pid: process.pid })}\n`);

process.on('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
