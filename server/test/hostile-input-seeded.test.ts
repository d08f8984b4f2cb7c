/**
 * Hostile input over the seeded demo (seeds/, small scale), on every plugin call: their lists
 * now hold rows, so a page beyond them, a fraction or a negative page, huge strings and wrong
 * types reach the queries, joins and slices that an empty database never runs (a plugin list
 * call with hand-parsed paging answered 10000 to `page: 1e300` only when it had rows). Each key
 * a handler reads or its call declares is sent alone with each value below (one call per
 * plugin and key set gets a key; paging goes to every call); every call whose handler reads
 * `page` or `limit` must refuse 1e300, 2.5, −1, "1e300", 2³¹ and wrong types with a 10001,
 * like the generated lists. Nothing may answer 5xx or 10000, break, or hang. The body-level
 * attacks and the full value catalogue run on the empty database (hostile-input.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG, json, readKeys, ready, run, server, startHostileServer, type CallInfo, type Probe, type Tally } from './support/hostile-suite';

/** What every read or declared key gets, alone; `refused` ones must answer 10001 wherever they go. */
const VALUES: Array<{ label: string; value: unknown; refused?: boolean }> = [
  { label: '1e300', value: 1e300 },
  { label: '2.5', value: 2.5 },
  { label: '-1', value: -1 },
  { label: '"1e300"', value: '1e300' },
  { label: '2^31', value: 2 ** 31 },
  { label: '300 KB string', value: LONG, refused: true },
  { label: '5,000 characters', value: 'x'.repeat(5000) },
  { label: 'object', value: { $gt: 0 } },
  { label: 'mixed list', value: ['x', {}, null, 1e300] },
  { label: 'true', value: true },
];
const PAGING = new Set(['page', 'limit']);
/** paging values every list must refuse */
const BAD_PAGING = new Set(['1e300', '2.5', '-1', '"1e300"', '2^31', 'object', 'mixed list', 'true', '5,000 characters']);
const OBJECT_KEYS = new Set(['toJSON', 'then', 'constructor', '__proto__', 'valueOf', 'toString', 'hasOwnProperty', 'length']);

beforeAll(async () => {
  await startHostileServer({ HOSTILE_SEED: 'small' });
}, 240_000);

afterAll(() => server?.stop());

function* keyProbes(c: CallInfo, keys: string[]): Generator<Probe> {
  for (const key of keys) {
    for (const v of VALUES) {
      const mustRefuse = Boolean(v.refused) || (PAGING.has(key) && BAD_PAGING.has(v.label));
      yield { path: c.path, label: `${key}=${v.label}`, body: json({ [key]: v.value }), mustRefuse };
    }
  }
}

describe('hostile input on every plugin call, over the seeded demo', () => {
  it('answers every key with a refusal or a result, and refuses bad paging with a 10001', async () => {
    expect(ready.seeded).toBe('small');
    // multipart calls read no JSON; organisation-token calls (ingest) refuse a session first
    const calls = ready.calls.filter((c) => c.plugin && !c.raw && c.path !== '/account/logout');
    expect(calls.length).toBeGreaterThan(50);
    const tally: Tally = { sent: 0, byCode: {}, fiveHundreds: [], internal: [], broken: [], hangs: [], notRefused: [] };
    const started = Date.now();
    // the handlers' reads are recorded while they answer an empty body and then each key alone
    await run(
      calls.map((c) => ({ path: c.path, label: 'empty', body: '{}' })),
      tally,
    );
    const sent = new Map<string, Set<string>>(calls.map((c) => [c.path, new Set()]));
    // calls of one plugin that read the same keys share their parsing (a report's list and
    // export, map history and its variants): one of them gets each key alone; paging goes to all
    const family = new Map<string, string>();
    const shapes = new Set<string>();
    let pagingCalls = 0;
    for (let round = 0; round < 3; round++) {
      const read = await readKeys();
      if (round === 0) for (const c of calls) family.set(c.path, `${c.plugin} ${[...(read[c.path] ?? [])].sort().join(',')}`);
      const fresh = calls.map((c) => {
        const keys = [...new Set([...(read[c.path] ?? []), ...c.fields])].filter((k) => !OBJECT_KEYS.has(k) && !sent.get(c.path)!.has(k));
        for (const k of keys) sent.get(c.path)!.add(k);
        if (keys.includes('page')) pagingCalls++;
        const alone = keys.filter((k) => {
          const shape = `${family.get(c.path)} ${k}`;
          if (!PAGING.has(k) && shapes.has(shape)) return false;
          shapes.add(shape);
          return true;
        });
        return [c, alone] as const;
      });
      if (!fresh.some(([, keys]) => keys.length)) break;
      await run(
        (function* () {
          for (const [c, keys] of fresh) yield* keyProbes(c, keys);
        })(),
        tally,
      );
    }
    const report = {
      command: 'npx vitest run --project server test/hostile-input-seeded.test.ts',
      database: ready.dialect,
      seeded: ready.seeded,
      pluginCalls: calls.length,
      callsReadingPage: pagingCalls,
      requestsSent: tally.sent,
      seconds: Math.round((Date.now() - started) / 1000),
      answersByCode: Object.fromEntries(Object.entries(tally.byCode).sort(([a], [b]) => a.localeCompare(b))),
    };
    console.log('[hostile-input-seeded]', JSON.stringify(report, null, 2));
    const sample = (xs: string[]) => xs.slice(0, 30).join('\n');
    if (tally.fiveHundreds.length || tally.internal.length || tally.broken.length)
      console.log('[hostile-input-seeded] server log tail:\n' + server.stderr().slice(-6000));
    expect(server.exited(), server.stderr().slice(-4000)).toBeNull();
    expect(sample(tally.fiveHundreds), '5xx').toBe('');
    expect(sample(tally.internal), 'internal errors').toBe('');
    expect(sample(tally.broken), 'broken answers').toBe('');
    expect(sample(tally.hangs), 'unanswered').toBe('');
    expect(sample(tally.notRefused), 'not refused').toBe('');
    expect(pagingCalls).toBeGreaterThan(5);
  }, 900_000);
});
