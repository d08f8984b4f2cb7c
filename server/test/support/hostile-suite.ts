/**
 * The hostile-input suite's machinery (server/test/hostile-input*.test.ts): the server under
 * test as a child process (support/hostile-server.ts), the probes (malformed bodies, refused
 * strings, odd values into every declared, common and read key), the runner that tallies the
 * answers, and one function running the whole pass over every registered call with its
 * assertions: no 5xx, no 10000, nothing broken or unanswered, every refused value refused, the
 * server process the same, a bystander served throughout, the resident set bounded.
 */
import { loadavg } from 'node:os';
import { expect } from 'vitest';
import { startChildServer, type ChildServer } from './child-server';

export interface CallInfo {
  path: string;
  resource: string | null;
  plugin: string | null;
  raw: boolean;
  public: boolean;
  /** permission code; null = any signed-in caller (or a token of its own) */
  permission: string | null;
  fields: string[];
}
export interface Ready {
  url: string;
  pid: number;
  dialect: string;
  attacker: { token: string; orgId: number };
  bystander: { token: string; orgId: number };
  calls: CallInfo[];
  /** resource → field name → its shape */
  fields: Record<string, Record<string, { type: string; search?: string; enum?: string }>>;
  /** the demo scale seeded before the suite (HOSTILE_SEED), null for an empty database */
  seeded?: string | null;
}

/** Every answer must come within this (exports and PDFs included). */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Requests in flight at once: enough to overlap, few enough for a 2-core machine. */
const CONCURRENCY = 4;
/** The documented bound (docs/SERVER.md "Input limits"). */
const RSS_BOUND_MB = 768;
/** V8 old-space cap of the server under test: its live memory must fit (docs/SERVER.md "Input limits") */
export const HEAP_MB = 384;

export const LANGS = ['en-US', 'zh-CN', 'ja-JP'];
export const LONG = 'x'.repeat(300 * 1024);
export const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** Values that must be refused (10001) wherever they appear in a JSON body. */
export const REFUSED_STRINGS: Record<string, string> = {
  nul: 'a\u0000b',
  surrogate: 'a\ud800b',
  lowSurrogate: '\udc00',
  bidi: 'abc\u202Edef',
  isolate: '\u2066abc\u2069',
  control: 'a\u0007b',
  long: LONG,
};
/** Values that may be accepted or refused, but never fail the server. */
export const ODD_VALUES: Record<string, unknown> = {
  emoji: '😀 テスト 中文',
  huge: 1e300,
  negHuge: -1e300,
  negative: -1,
  zero: 0,
  fraction: 1.5,
  unsafeInt: 2 ** 53 + 2,
  beyondInt32: 2 ** 31,
  maxDate: 8.64e15,
  nanText: 'NaN',
  infText: 'Infinity',
  expText: '1e300',
  badDate: '2026-02-30T25:61:00Z',
  farYear: '+275760-09-13T00:00:00.000Z',
  bool: true,
  emptyObject: {},
  operator: { $gt: 0, gt: 0 },
  hugeRange: [1e300, -1e300],
  mixedList: ['x', {}, null, 1e300],
  nulList: ['\u0000'],
  longList: Array.from({ length: 20_000 }, (_, i) => i),
};
/** Prefix of the keys the suite invents: handlers that copy the body "read" them, they are no parameters. */
const JUNK = 'zzJunk';
/** Keys JavaScript itself reads on any object (spread, JSON.stringify, await): not parameters. */
const OBJECT_KEYS = new Set(['toJSON', 'then', 'constructor', '__proto__', 'valueOf', 'toString', 'hasOwnProperty', 'length']);
/** Parameters many calls take, sent to every call. */
const COMMON = [
  'page',
  'limit',
  'id',
  'ids',
  'sort',
  'keyword',
  'name',
  'code',
  'startTime',
  'endTime',
  'time',
  'timeRange',
  'date',
  'orgId',
  'warehouseId',
  'importId',
  'resource',
  'columns',
  'fields',
  'fileName',
  'sortById',
  'sortByNope',
];

export let server: ChildServer<Ready>;
export let ready: Ready;
export const readKeys = async () => (await server.ask<{ keys: Record<string, string[]> }>('keys')).keys;

/** Starts the server under test (env: e.g. HOSTILE_SEED=small for a seeded demo database). */
export async function startHostileServer(env: Record<string, string> = {}): Promise<ChildServer<Ready>> {
  // no MQTT port (parallel suites), no demo fleet writing in the background
  server = await startChildServer<Ready>({
    script: 'test/support/hostile-server.ts',
    name: 'hostile server',
    ipc: true,
    heapMb: HEAP_MB,
    env: { MQTT_PORT: '0', SIMULATOR_DEVICES: '0', ...env },
  });
  ready = server.ready;
  return server;
}

export interface Probe {
  path: string;
  /** raw request body */
  body: string;
  label: string;
  /** the answer must be a 10001 refusal */
  mustRefuse?: boolean;
}

type Outcome =
  | { kind: 'answer'; status: number; code: number | null; message: string }
  | { kind: 'file'; status: number }
  | { kind: 'stream' }
  | { kind: 'broken'; error: string }
  | { kind: 'hang' };

/** calls that take an organisation API token (ingest), and that token */
const tokenCalls = new Set<string>();
/** calls the attacker is refused outright (10005 to an empty body): a plugin switched off for its organisation */
const forbiddenCalls = new Set<string>();
let orgToken = '';

export async function send(probe: Probe, lang: string): Promise<Outcome> {
  const headers: Record<string, string> = tokenCalls.has(probe.path)
    ? { 'Content-Type': 'application/json', Token: orgToken, Language: lang }
    : { 'Content-Type': 'application/json', Token: ready.attacker.token, OrgId: String(ready.attacker.orgId), Language: lang };
  const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(`${ready.url}/api${probe.path}`, { method: 'POST', headers, body: probe.body, signal });
  } catch (err) {
    return signal.aborted ? { kind: 'hang' } : { kind: 'broken', error: String((err as Error).cause ?? err) };
  }
  const type = res.headers.get('content-type') ?? '';
  try {
    if (type.includes('text/event-stream')) {
      await res.body?.cancel();
      return { kind: 'stream' };
    }
    if (!type.includes('json')) {
      await res.arrayBuffer();
      return { kind: 'file', status: res.status };
    }
    const text = await res.text();
    let code: number | null = null;
    let message = '';
    try {
      const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
      code = typeof parsed.code === 'number' ? parsed.code : null;
      message = String(parsed.message ?? '');
    } catch {
      // a JSON content type with a body that is not JSON: counted below as a fault
    }
    return { kind: 'answer', status: res.status, code, message };
  } catch (err) {
    return signal.aborted ? { kind: 'hang' } : { kind: 'broken', error: String((err as Error).cause ?? err) };
  }
}

export const json = (v: unknown) => JSON.stringify(v);

/** Body-level attacks, the same for every call (`n` rotates the variants of one kind). */
function bodyProbes(path: string, n: number): Probe[] {
  const p = (label: string, body: string, mustRefuse = false): Probe => ({ path, label, body, mustRefuse });
  const notObject = ['[1,2]', '"x"', '1e300', 'null', 'true'][n % 5];
  return [
    p('empty', '{}'),
    p('malformed JSON', ['{"page": 1,', '{"a":"\\u00"}', '{,}', '\u0000'][n % 4]),
    p(`not an object ${notObject}`, notObject),
    n % 2
      ? p('nesting 10,000 deep (arrays)', `{"x":${deep(10_000)}}`, true)
      : p('nesting 10,000 deep (objects)', '{"x":'.repeat(10_000) + '1' + '}'.repeat(10_000), true),
    n % 2
      ? p('prototype keys', '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}', true)
      : p('prototype key nested', '{"filter":{"__proto__":{"polluted":1}}}', true),
    p('unknown keys and sort fields', json({ [`${JUNK}nope`]: 1, [`${JUNK}a.b`]: 2, [JUNK]: 3, sortByNope: true, sortByZzJunk: 'x' })),
    n % 2 ? p('300 KB key', json({ [LONG]: 1 }), true) : p('5,000 keys', json(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`${JUNK}${i}`, i])))),
  ];
}

/**
 * Per key: the long string and one refused kind, then one value of each odd kind; kinds with
 * several variants rotate with the key's position, so every variant is sent across the suite.
 */
const ODD_GROUPS: string[][] = [
  ['emoji'],
  ['huge', 'negHuge'],
  ['negative'],
  ['unsafeInt', 'beyondInt32', 'maxDate', 'fraction', 'zero'],
  ['nanText', 'infText', 'expText'],
  ['badDate', 'farYear'],
  ['emptyObject', 'operator', 'bool'],
  ['hugeRange'],
  ['mixedList', 'longList', 'nulList'],
];
const REFUSED_KINDS = Object.keys(REFUSED_STRINGS).filter((k) => k !== 'long');

function* keyProbes(path: string, keys: string[], offset = 0): Generator<Probe> {
  for (const [j, key] of keys.entries()) {
    const i = j + offset;
    const kind = REFUSED_KINDS[i % REFUSED_KINDS.length];
    yield { path, label: `${key}=${kind}`, body: json({ [key]: REFUSED_STRINGS[kind] }), mustRefuse: true };
    yield { path, label: `${key}=long`, body: json({ [key]: LONG }), mustRefuse: true };
    for (const group of ODD_GROUPS) {
      const name = group[i % group.length];
      yield { path, label: `${key}=${name}`, body: json({ [key]: ODD_VALUES[name] }) };
    }
  }
}

/** Every declared and common key at once: a refused string (rotating), then a few odd values. */
function allKeyProbes(path: string, keys: string[], n: number): Probe[] {
  const every = (v: unknown) => json(Object.fromEntries(keys.map((k) => [k, v])));
  const kind = REFUSED_KINDS[n % REFUSED_KINDS.length];
  const odd = ['huge', 'operator', 'hugeRange', 'farYear'];
  return [
    { path, label: `all=${kind}`, body: every(REFUSED_STRINGS[kind]), mustRefuse: true },
    { path, label: 'all=nested', body: `{${keys.map((k) => `"${k}":${deep(40)}`).join(',')}}`, mustRefuse: true },
    ...odd.map((name) => ({ path, label: `all=${name}`, body: every(ODD_VALUES[name]) })),
  ];
}

export interface Tally {
  sent: number;
  byCode: Record<string, number>;
  fiveHundreds: string[];
  internal: string[];
  broken: string[];
  hangs: string[];
  notRefused: string[];
}

const slow: Array<[number, string]> = [];
const rawCalls = new Set<string>();
/** Sends the probes CONCURRENCY at a time; they are built lazily (300 KB bodies add up). */
export async function run(probes: Iterable<Probe>, tally: Tally): Promise<void> {
  const it = probes[Symbol.iterator]();
  let i = 0;
  const worker = async () => {
    for (;;) {
      const next = it.next();
      if (next.done) return;
      const probe = next.value;
      i++;
      const t0 = performance.now();
      const outcome = await send(probe, LANGS[i % LANGS.length]);
      if (process.env.HOSTILE_DEBUG) slow.push([performance.now() - t0, `${probe.path} [${probe.label}]`]);
      tally.sent++;
      if (process.env.HOSTILE_DEBUG && tally.sent % 200 === 0)
        console.error(tally.sent, probe.path, probe.label, Math.round(process.memoryUsage().heapUsed / 1e6));
      const where = `${probe.path} [${probe.label}]`;
      if (outcome.kind === 'hang') tally.hangs.push(where);
      else if (outcome.kind === 'broken') tally.broken.push(`${where}: ${outcome.error}`);
      else if (outcome.kind === 'stream') tally.byCode.stream = (tally.byCode.stream ?? 0) + 1;
      else if (outcome.kind === 'file') {
        tally.byCode[`file ${outcome.status}`] = (tally.byCode[`file ${outcome.status}`] ?? 0) + 1;
        if (outcome.status >= 500) tally.fiveHundreds.push(where);
        if (probe.mustRefuse) tally.notRefused.push(`${where}: a file`);
      } else {
        const key = outcome.code === null ? `HTTP ${outcome.status} (no code)` : String(outcome.code);
        tally.byCode[key] = (tally.byCode[key] ?? 0) + 1;
        if (outcome.status >= 500) tally.fiveHundreds.push(`${where}: HTTP ${outcome.status} ${outcome.message}`);
        if (outcome.code === 10000 || outcome.code === null) tally.internal.push(`${where}: ${outcome.code} ${outcome.message}`);
        if (outcome.code === 10005 && process.env.HOSTILE_DEBUG) console.error('10005', where, outcome.message);
        // multipart calls do not read JSON: any refusal of theirs will do
        // a call the attacker may not use at all (a plugin switched off for its organisation) refuses with 10005 first
        const refused = rawCalls.has(probe.path) ? outcome.code !== 0 : outcome.code === 10001 || (outcome.code === 10005 && forbiddenCalls.has(probe.path));
        if (probe.mustRefuse && !refused) tally.notRefused.push(`${where}: ${outcome.code} ${outcome.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** A second user's calls during the suite: each must succeed; the slowest is the worst stall. */
function bystanderLoop() {
  let stop = false;
  let worst = 0;
  let count = 0;
  const failures: string[] = [];
  const paths = ['/account/info', '/device-beacon/list', '/carrier/list'];
  const done = (async () => {
    while (!stop) {
      const path = paths[count % paths.length];
      const started = performance.now();
      try {
        const res = await fetch(`${ready.url}/api${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Token: ready.bystander.token, OrgId: String(ready.bystander.orgId) },
          body: '{"limit":20}',
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const body = (await res.json()) as { code: number; message: string };
        if (body.code !== 0) failures.push(`${path}: ${body.code} ${body.message}`);
      } catch (err) {
        failures.push(`${path}: ${String(err)}`);
      }
      worst = Math.max(worst, performance.now() - started);
      count++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      stop = true;
      await done;
      return { worst, count, failures };
    },
  };
}

export interface EveryCallOptions {
  /** the name the report is printed under */
  label: string;
  /** how to run this pass alone (printed in the report) */
  command: string;
  /** only these calls (default: every call; HOSTILE_ONLY narrows further) */
  only?: (c: CallInfo) => boolean;
  /** more probes after the key rounds, given the targets and the keys each handler read */
  extra?: (targets: CallInfo[], read: Record<string, string[]>) => Iterable<Probe>;
}

/** One pass of hostile input over the registered calls, with the suite's assertions. */
export async function hostileEveryCall(opts: EveryCallOptions): Promise<void> {
  // logout ends the attacker's session: it goes last, alone
  const calls = ready.calls.filter((c) => c.path !== '/account/logout');
  for (const c of calls) if (c.raw) rawCalls.add(c.path);
  // ingest takes an organisation token, not a session: the bystander's organisation issues
  // one (the suite's own calls to /organization-token/* replace and revoke the attacker's)
  const issued = await fetch(`${ready.url}/api/organization-token/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Token: ready.bystander.token, OrgId: String(ready.bystander.orgId) },
    body: '{}',
  });
  orgToken = ((await issued.json()) as { data: { token: string } }).data.token;
  expect(orgToken).toMatch(/^[\w-]{20,}$/); // base64url: letters, digits, _ and -
  for (const c of calls.filter((x) => x.permission === null && !x.public)) {
    const tried = await send({ path: c.path, label: 'session?', body: '{}' }, 'en-US');
    if (tried.kind === 'answer' && tried.code === 10005) tokenCalls.add(c.path);
  }
  for (const c of calls.filter((x) => x.plugin && x.permission !== null && !x.raw)) {
    const tried = await send({ path: c.path, label: 'allowed?', body: '{}' }, 'en-US');
    if (tried.kind === 'answer' && tried.code === 10005) forbiddenCalls.add(c.path);
  }
  const pluginCount = calls.filter((c) => c.plugin).length;
  expect(pluginCount).toBeGreaterThan(50);
  const tally: Tally = { sent: 0, byCode: {}, fiveHundreds: [], internal: [], broken: [], hangs: [], notRefused: [] };
  let peakSeen = 0;
  const sampler = setInterval(() => (peakSeen = Math.max(peakSeen, server.rss().now)), 250);
  const loop = bystanderLoop();
  const started = Date.now();
  server.child.send({ type: 'loop-start' });
  const cpuAtStart = server.cpuSeconds();
  const rssAtStart = server.rss().now;

  // round 1: body-level attacks and every declared and common key at once, to every call;
  // the handlers' reads are recorded meanwhile
  const onlyPaths = process.env.HOSTILE_ONLY ? new RegExp(process.env.HOSTILE_ONLY) : null;
  const targets = calls.filter((c) => (!onlyPaths || onlyPaths.test(c.path)) && (!opts.only || opts.only(c)));
  await run(
    (function* () {
      for (const [n, c] of targets.entries()) {
        yield* bodyProbes(c.path, n);
        yield* allKeyProbes(c.path, [...new Set([...c.fields, ...COMMON])], n);
      }
    })(),
    tally,
  );
  // then each key a handler was seen to read, alone, until no new key shows up. Generated
  // calls run the same code for every resource: one call per (call kind, field shape) is
  // enough; plugin exports of one family (…/export/<kind>) share their parameter parsing.
  const shapes = new Set<string>();
  const shapeOf = (c: CallInfo, key: string) => {
    if (!c.plugin && c.resource) {
      const f = ready.fields[c.resource]?.[key];
      // list, all and export parse one query; create and update validate one write
      const last = c.path.split('/').pop()!;
      const kind = ['list', 'all', 'export'].includes(last) ? 'query' : ['create', 'update'].includes(last) ? 'write' : last;
      return `generated ${kind} ${f ? `${f.type}/${f.search ?? '-'}/${f.enum ? 'enum' : ''}` : key}`;
    }
    return `${c.plugin ?? 'core'} ${family.get(c.path) ?? c.path} ${key}`;
  };
  // hand-written calls of one plugin that read the same parameters share their parsing
  // (map history and its exports, list and admin list): one of them gets the keys alone
  const family = new Map<string, string>();
  const sentKeys = new Map<string, Set<string>>(targets.map((c) => [c.path, new Set()]));
  let offset = 0;
  for (let round = 0; round < 3; round++) {
    const read = await readKeys();
    if (round === 0)
      for (const c of targets)
        if (c.plugin)
          family.set(
            c.path,
            [...(read[c.path] ?? [])]
              .filter((k) => !k.startsWith(JUNK))
              .sort()
              .join(','),
          );
    const fresh = targets.map((c) => {
      const keys = (read[c.path] ?? []).filter(
        (k) => !sentKeys.get(c.path)!.has(k) && !OBJECT_KEYS.has(k) && !k.startsWith(JUNK) && !k.startsWith('sortByNope'),
      );
      for (const k of keys) sentKeys.get(c.path)!.add(k);
      const unseen = keys.filter((k) => !shapes.has(shapeOf(c, k)));
      for (const k of unseen) shapes.add(shapeOf(c, k));
      return [c.path, unseen] as const;
    });
    if (!fresh.some(([, keys]) => keys.length)) break;
    await run(
      (function* () {
        for (const [path, keys] of fresh) {
          yield* keyProbes(path, keys, offset);
          offset += keys.length;
        }
      })(),
      tally,
    );
  }
  // probes of the caller's own (paging of the calls that read it, …), with what the handlers read
  if (opts.extra) await run(opts.extra(targets, await readKeys()), tally);
  const keysSent = shapes.size;
  const logout = await send({ path: '/account/logout', label: 'logout', body: json({ x: REFUSED_STRINGS.nul }) }, 'en-US');
  tally.sent++;

  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const stall = await loop.stop();
  const memory = server.rss();
  const loopDelay = await server.ask<{
    maxMs: number;
    p99Ms: number;
    blocked: Array<{ ms: number; calls: string[] }>;
    rssSteps: Array<{ mb: number; calls: string[] }>;
  }>('loop');
  const aliveAndSame = server.exited() === null && server.child.pid === ready.pid;
  const report = {
    command: opts.command,
    seeded: ready.seeded ?? null,
    database: ready.dialect,
    calls: targets.length + 1,
    keyShapesProbedAlone: keysSent,
    pluginCalls: pluginCount,
    requestsSent: tally.sent,
    seconds: Math.round(seconds),
    answersByCode: Object.fromEntries(Object.entries(tally.byCode).sort(([a], [b]) => a.localeCompare(b))),
    fiveHundreds: tally.fiveHundreds.length,
    internalErrors: tally.internal.length,
    broken: tally.broken.length,
    hangs: tally.hangs.length,
    notRefused: tally.notRefused.length,
    restarts: aliveAndSame ? 0 : 1,
    bystanderRequests: stall.count,
    worstStallMs: Math.round(stall.worst),
    eventLoopBlockedMaxMs: Math.round(loopDelay.maxMs),
    eventLoopDelayP99Ms: Math.round(loopDelay.p99Ms),
    peakRssMb: Math.round(Math.max(memory.peak, peakSeen)),
    rssAtStartMb: Math.round(rssAtStart),
    serverCpuSeconds: Math.round(server.cpuSeconds() - cpuAtStart),
    loadAverage: loadavg().map((x) => Math.round(x * 10) / 10),
  };
  console.log(`[${opts.label}]`, JSON.stringify(report, null, 2));
  // over the bound: say which calls were running as the resident set climbed
  if (report.peakRssMb >= RSS_BOUND_MB || process.env.HOSTILE_DEBUG)
    console.log(`[${opts.label}] resident set grew while these calls ran:\n` + loopDelay.rssSteps.map((r) => `${r.mb} MB: ${r.calls.join(' | ')}`).join('\n'));
  if (process.env.HOSTILE_DEBUG) {
    console.log(
      `[${opts.label}] event loop blocked ≥ 150 ms while these calls ran:\n` + loopDelay.blocked.map((b) => `${b.ms} ms: ${b.calls.join(' | ')}`).join('\n'),
    );
    const byPath = new Map<string, number>();
    for (const [ms, where] of slow) byPath.set(where.replace(/ \[.*/, ''), (byPath.get(where.replace(/ \[.*/, '')) ?? 0) + ms);
    console.log(
      [...byPath]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([p, ms]) => `${Math.round(ms)} ${p}`)
        .join('\n'),
    );
    console.log(
      slow
        .sort((a, b) => b[0] - a[0])
        .slice(0, 15)
        .map(([ms, w]) => `${Math.round(ms)} ${w}`)
        .join('\n'),
    );
  }
  const sample = (xs: string[]) => xs.slice(0, 30).join('\n');
  for (const [name, list] of Object.entries({
    '5xx': tally.fiveHundreds,
    'internal errors': tally.internal,
    broken: tally.broken,
    unanswered: tally.hangs,
    'not refused': tally.notRefused,
  })) {
    if (list.length) console.log(`[${opts.label}] ${name}:\n${sample(list)}`);
  }
  if (tally.fiveHundreds.length || tally.internal.length || tally.broken.length)
    console.log(`[${opts.label}] server log tail:\n` + server.stderr().slice(-6000));

  expect(aliveAndSame, `server process changed: ${JSON.stringify(server.exited())}\n${server.stderr().slice(-4000)}`).toBe(true);
  expect(server.stderr()).not.toContain('[hostile-server] unhandled');
  expect(server.stderr()).not.toContain('[hostile-server] uncaught');
  expect(sample(tally.fiveHundreds), '5xx').toBe('');
  expect(sample(tally.internal), 'internal errors').toBe('');
  expect(sample(tally.broken), 'broken answers').toBe('');
  expect(sample(tally.hangs), 'unanswered').toBe('');
  expect(sample(tally.notRefused), 'not refused').toBe('');
  expect(logout.kind === 'answer' && logout.code).toBe(10001);
  expect(stall.failures.slice(0, 10)).toEqual([]);
  expect(report.peakRssMb).toBeLessThan(RSS_BOUND_MB);
}
