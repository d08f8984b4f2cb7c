/**
 * The server under the hostile-input suite, as a child process of its own (so a crash, an
 * unhandled rejection or a memory blow-up shows as a dead or swollen process, not as a test
 * runner that died with it): every plugin, a fresh database, two signed-in administrators
 * with every permission (one sends the hostile input, the other runs the concurrent loop);
 * with HOSTILE_SEED=small, over the seeded demo (seeds/), in its first two organisations.
 * Prints one `READY {json}` line on stdout, then serves until it is sent SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { callPermission } from '../../src/http/registry';
import type { CallDef } from '../../src/http/types';
import { createServer } from '../../src/index';
import { SCALES, seedServer } from '@rti/seeds';
import { createTestDatabase } from './test-database';

// Node's default already ends the process on both; saying so in the log names the cause.
process.on('unhandledRejection', (err) => {
  console.error('[hostile-server] unhandled rejection', err);
  process.exit(70);
});
process.on('uncaughtException', (err) => {
  console.error('[hostile-server] uncaught exception', err);
  process.exit(70);
});

const dataDir = mkdtempSync(join(tmpdir(), 'rti-hostile-'));
const db = await createTestDatabase();
// Every 5xx is logged to stderr with its stack: the suite prints them when it fails.
const server = await createServer({ databaseUrl: db.url, plugins: true, config: { dataDir }, logError: (m, e) => console.error('[server]', m, e ?? '') });
const { url } = await server.listen(0);

const models = server.db.models;
const codes = server.listPermissionCodes();
// HOSTILE_SEED=small: the demo (seeds/) first, so list calls answer rows (paging beyond them,
// joins of real documents); the attacker acts in its first organisation, the bystander in the second
const seeded = process.env.HOSTILE_SEED ? await seedServer(server, { scale: SCALES[process.env.HOSTILE_SEED as keyof typeof SCALES] ?? SCALES.small }) : null;
const org = async (code: string) =>
  Number((await models.organization.create({ code, name: `Org ${code}`, entryCode: code.toLowerCase(), pcPermissions: codes })).get('id'));
const everything = async (id: number) => (await models.organization.update({ pcPermissions: codes }, { where: { id } }), id);
const orgA = seeded ? await everything(seeded.organizations.demo) : await org('HOSTA');
const orgB = seeded ? await everything(seeded.organizations.acme) : await org('HOSTB');
const session = async (orgId: number, name: string) => {
  const role = Number((await models.role.create({ orgId, name: `all-${name}`, pcPermissions: codes })).get('id'));
  const user = await models.user.create({ orgId, name, realName: name, roleIds: [role], organizationIds: [orgId], sysOrgUser: true });
  await server.access.policies.changed([orgId], undefined);
  const { token } = await server.access.sessions.create({ userId: Number(user.get('id')), loginOrgId: orgId, loginEntryCode: null });
  return { token, orgId };
};
const attacker = await session(orgA, 'mallory');
const bystander = await session(orgB, 'bystander');

/** Calls in flight, and what was in flight whenever the event loop was blocked ≥ 150 ms (diagnostics). */
const inFlight = new Map<number, string>();
let nextRequest = 0;
const blocked: Array<{ ms: number; calls: string[] }> = [];
async function tracked<T>(path: string, body: unknown, fn: () => T | Promise<T>): Promise<T> {
  const id = nextRequest++;
  inFlight.set(id, `${path} ${JSON.stringify(body).slice(0, 80)}`);
  try {
    return await fn();
  } finally {
    inFlight.delete(id);
  }
}
/** what was in flight whenever the resident set grew by 16 MB past its peak (diagnostics: who costs memory) */
const rssSteps: Array<{ mb: number; calls: string[] }> = [];
let rssPeak = process.memoryUsage.rss();
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > rssPeak + 16 * 2 ** 20) {
    rssSteps.push({ mb: Math.round(rss / 2 ** 20), calls: [...inFlight.values()] });
    rssPeak = rss;
  }
}, 50).unref();
let tick = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - tick > 150 + 20) blocked.push({ ms: Math.round(now - tick - 20), calls: [...inFlight.values()] });
  tick = now;
}, 20).unref();

/**
 * Which body keys each handler reads (get, has, own-property checks): the suite sends hostile
 * values into them as well, so plugin parameters no metadata declares are reached too.
 */
const readKeys = new Map<string, Set<string>>();
for (const def of server.calls.list()) {
  const handler = def.handler;
  const seen = readKeys.set(def.path, new Set()).get(def.path)!;
  const note = (key: string | symbol) => {
    if (typeof key === 'string') seen.add(key);
  };
  def.handler = (input) =>
    tracked(def.path, input.body, () =>
      handler({
        ...input,
        body: new Proxy(input.body, {
          get: (target, key, receiver) => (note(key), Reflect.get(target, key, receiver)),
          has: (target, key) => (note(key), Reflect.has(target, key)),
          getOwnPropertyDescriptor: (target, key) => (note(key), Reflect.getOwnPropertyDescriptor(target, key)),
        }),
      }),
    );
}
// the longest the event loop was blocked: the server's own share of a stall other users see
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
process.on('message', (msg: { type?: string }) => {
  if (msg?.type === 'keys') process.send?.({ type: 'keys', keys: Object.fromEntries([...readKeys].map(([path, keys]) => [path, [...keys]])) });
  if (msg?.type === 'loop-start') loopDelay.enable();
  if (msg?.type === 'loop')
    process.send?.({
      type: 'loop',
      maxMs: loopDelay.max / 1e6,
      p99Ms: loopDelay.percentile(99) / 1e6,
      blocked: blocked.sort((a, b) => b.ms - a.ms).slice(0, 10),
      rssSteps: rssSteps.slice(-12),
    });
});

const fieldsOf = (resource?: string) => (resource ? (server.metadata.resources[resource]?.fields ?? []).map((f) => f.name) : []);
// a hand-written call's declared input (and paging) names its parameters as a resource's fields do
const declared = (c: CallDef) => [...Object.keys(c.input ?? {}), ...(c.paging ? ['page', 'limit'] : [])];
const calls = server.calls.list().map((c) => ({
  path: c.path,
  resource: c.resource ?? null,
  plugin: c.plugin ?? null,
  raw: Boolean(c.raw),
  public: Boolean(c.public),
  permission: callPermission(c),
  fields: [...new Set([...fieldsOf(c.resource), ...declared(c)])],
}));
const fields = Object.fromEntries(
  Object.values(server.metadata.resources).map((r) => [
    r.name,
    Object.fromEntries(r.fields.map((f) => [f.name, { type: f.type, search: f.search, enum: f.enum }])),
  ]),
);
process.stdout.write(
  `READY ${JSON.stringify({ url, pid: process.pid, dialect: db.dialect, attacker, bystander, calls, fields, seeded: seeded?.scale ?? null })}\n`,
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void server
    .close()
    .then(() => db.drop())
    .finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
};
process.on('SIGTERM', stop);
// the suite went away without stopping us (its worker crashed): do not outlive it
process.on('disconnect', stop);
