/**
 * The server under the hostile-upload suite, as a child process (a crash or an unhandled
 * 'error' event shows as a dead process, not as a test runner that died with it): every
 * plugin, a fresh database, DATA_DIR and TMPDIR chosen by the suite (so it can look for
 * leftovers in both), two signed-in users with every permission (one uploads, the other runs
 * the concurrent loop). Prints one `READY {json}` line, then serves until SIGTERM.
 */
import { createServer } from '../../src/index';
import { createTestDatabase } from './test-database';

process.on('unhandledRejection', (err) => {
  console.error('[upload-server] unhandled rejection', err);
  process.exit(70);
});
process.on('uncaughtException', (err) => {
  console.error('[upload-server] uncaught exception', err);
  process.exit(70);
});

const db = await createTestDatabase();
const server = await createServer({ databaseUrl: db.url, plugins: true, logError: (m, e) => console.error('[server]', m, e ?? '') });
const { url } = await server.listen(0);

const models = server.db.models;
const codes = server.listPermissionCodes();
const session = async (code: string) => {
  const orgId = Number((await models.organization.create({ code, name: `Org ${code}`, entryCode: code.toLowerCase(), pcPermissions: codes })).get('id'));
  const role = Number((await models.role.create({ orgId, name: 'all', pcPermissions: codes })).get('id'));
  const user = await models.user.create({ orgId, name: code.toLowerCase(), realName: code, roleIds: [role], organizationIds: [orgId] });
  await server.access.policies.changed([orgId], undefined);
  const { token } = await server.access.sessions.create({ userId: Number(user.get('id')), loginOrgId: orgId, loginEntryCode: null });
  return { token, orgId };
};
const uploader = await session('UPLA');
const bystander = await session('UPLB');
const calls = server.calls.list().map((c) => ({ path: c.path, raw: Boolean(c.raw), resource: c.resource ?? null, plugin: c.plugin ?? null }));
const importable = Object.values(server.metadata.resources)
  .filter((r) => r.import)
  .map((r) => r.name);
process.stdout.write(
  `READY ${JSON.stringify({ url, pid: process.pid, dataDir: server.config.dataDir, limits: { idleMs: server.config.uploadIdleMs, requestMs: server.config.requestTimeoutMs }, uploader, bystander, calls, importable })}\n`,
);

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  // the signal handler cannot await: the chain ends the process however closing went
  void server
    .close()
    .then(() => db.drop())
    .finally(() => process.exit(0));
});
