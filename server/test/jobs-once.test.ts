/**
 * `ctx.jobs.every(name, ms, fn, { once: true })`: two server instances on one database run the
 * job once per period between them (a lease row claimed by a conditional UPDATE), while a job
 * without `once` runs on every instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RtiServer } from '../src/index';
import { startTestServer, type TestServer } from './support/test-server';
import { tempDataDir } from './import-fixtures';

let one: TestServer;
let two: RtiServer;

beforeAll(async () => {
  one = await startTestServer({ config: { dataDir: tempDataDir(), instanceId: 'api-1' } });
  two = await createServer({ databaseUrl: one.db.url, plugins: false, logError: () => undefined, config: { dataDir: tempDataDir(), instanceId: 'api-2' } });
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('jobs once per cluster', () => {
  it('two instances on one database: a once job runs once per period, a plain job on both', async () => {
    const period = 300;
    const runs: { instance: string; at: number }[] = [];
    const plain: string[] = [];
    const stops: Array<() => void> = [];
    for (const [instance, server] of [
      ['api-1', one.server],
      ['api-2', two],
    ] as const) {
      stops.push(server.jobs.every('test:once', period, () => void runs.push({ instance, at: Date.now() }), { once: true }));
      stops.push(server.jobs.every('test:plain', period, () => void plain.push(instance)));
      // the second instance's timer ticks half a period after the first one's
      await sleep(period / 2);
    }
    const started = Date.now();
    await sleep(period * 10);
    for (const stop of stops) stop();
    const periods = (Date.now() - started) / period;
    // once per period between the two (a tick may straddle the start or the end)
    expect(runs.length).toBeGreaterThanOrEqual(Math.floor(periods) - 2);
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(periods) + 1);
    // never two runs close together (claims are a period apart; the run starts after the
    // claim's round trip, which varies on a loaded machine)
    for (let i = 1; i < runs.length; i++) expect(runs[i].at - runs[i - 1].at).toBeGreaterThanOrEqual(period / 2);
    // the plain job ran on both instances, about twice as often
    expect(plain.filter((p) => p === 'api-1').length).toBeGreaterThanOrEqual(Math.floor(periods) - 1);
    expect(plain.filter((p) => p === 'api-2').length).toBeGreaterThanOrEqual(Math.floor(periods) - 1);
  });

  it('an instance that stops leaves the job to the other one', async () => {
    const period = 200;
    const runs: string[] = [];
    const stopOne = one.server.jobs.every('test:handover', period, () => void runs.push('api-1'), { once: true });
    await sleep(period / 2);
    const stopTwo = two.jobs.every('test:handover', period, () => void runs.push('api-2'), { once: true });
    await sleep(period * 4);
    stopOne();
    const before = runs.length;
    await sleep(period * 4);
    stopTwo();
    expect(runs.slice(before).length).toBeGreaterThanOrEqual(2);
    expect(runs.slice(before).every((r) => r === 'api-2')).toBe(true);
  });
});
