/**
 * A carrier re-coded in the period: each of its events counts under the code on its in/out row —
 * a cycle or visit ending after the relabel under the new code, those before under the old —
 * never under both (the turns per carrier code and the pool-size check). Figures by hand below.
 */
import { DAY_MS } from '@rti/server/plugin-api';
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
const id: Record<string, number> = {};

const D0 = Date.UTC(2026, 0, 1);
const at = (n: number) => new Date(D0 + n * DAY_MS);
const PERIOD = { time: [at(0).toISOString(), at(60).toISOString()] };
const BY_CODE = { ...PERIOD, by: Enums.poolGrouping.carrierCode };

async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

/*
 * Two warehouses without an owner, W1 and W2; codes BIN (created first: the lower id) and CRATE.
 * Days from 2026-01-01, period [0, 60]:
 *
 *   R  CRATE: out W1 1 · in W2 3 · out W2 8 · in W1 10 — relabelled BIN at W1 — BIN: out W1 21 · in W2 23 · out W2 28 · in W1 30 (still there)
 *   S  CRATE: out W1 2 · in W2 4 · out W2 14 · in W1 16 · out W1 32 · in W2 34 (still there)
 *
 * A departure ends a visit when the carrier's previous row at that warehouse is an arrival (days
 * held: since it), and a cycle when the carrier left that warehouse before (days: since then).
 *   R out W1 21 (BIN): visit since 10 = 11 d, cycle since 1 = 20 d; R out W2 8 (CRATE): visit 5 d;
 *   R out W2 28 (BIN): visit since 23 = 5 d, cycle since 8 = 20 d; S out W2 14: visit 10 d;
 *   S out W1 32: visit since 16 = 16 d, cycle since 2 = 30 d; R out W1 1 and S out W1 2: neither.
 *   BIN: arrivals 2 (R 23, 30), departures 2, visits 2 of 16 d (dwell 8), 2 cycles of 20 d (turns 18.25)
 *   CRATE: arrivals 5, departures 5, visits 3 of 31 d (dwell 10.33), 1 cycle of 30 d (turns 12.17)
 *   W1: arrivals 3, departures 4, visits 2 of 27 d (13.5), cycles 20 + 30 → 25
 *   W2: arrivals 4, departures 3, visits 3 of 20 d (6.67), 1 cycle of 20
 * Grouped by the carrier's code today (BIN for R), R's CRATE events would move to BIN.
 */
beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory', 'pool-analytics'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  for (const code of ['BIN', 'CRATE']) id[code] = (await ok(ts.a, '/carrier-code/create', { code, name: code, projectId, type: 10, available: true })).id;
  for (const code of ['W1', 'W2']) id[code] = (await ok(ts.a, '/warehouse/create', { code, name: code })).id;
  id.R = (await ok(ts.a, '/carrier/create', { sn: 'R', carrierCodeId: id.BIN })).id;
  id.S = (await ok(ts.a, '/carrier/create', { sn: 'S', carrierCodeId: id.CRATE })).id;
  // eslint-disable-next-line rti/no-raw-models -- the test writes what gate passes and receipts would
  const carriers = ts.server.db.models.carrier;
  const inWh = Enums.transportStatus.inWarehouse;
  await carriers.update({ warehouseId: id.W1, transportStatus: inWh, inboundTime: at(30) }, { where: { id: id.R } });
  await carriers.update({ warehouseId: id.W2, transportStatus: inWh, inboundTime: at(34) }, { where: { id: id.S } });
  const IN = Enums.inoutDirection.inbound;
  const OUT = Enums.inoutDirection.outbound;
  const moves: Array<[string, string, number, string, number]> = [
    ['R', 'CRATE', OUT, 'W1', 1],
    ['R', 'CRATE', IN, 'W2', 3],
    ['R', 'CRATE', OUT, 'W2', 8],
    ['R', 'CRATE', IN, 'W1', 10],
    ['R', 'BIN', OUT, 'W1', 21],
    ['R', 'BIN', IN, 'W2', 23],
    ['R', 'BIN', OUT, 'W2', 28],
    ['R', 'BIN', IN, 'W1', 30],
    ['S', 'CRATE', OUT, 'W1', 2],
    ['S', 'CRATE', IN, 'W2', 4],
    ['S', 'CRATE', OUT, 'W2', 14],
    ['S', 'CRATE', IN, 'W1', 16],
    ['S', 'CRATE', OUT, 'W1', 32],
    ['S', 'CRATE', IN, 'W2', 34],
  ];
  // eslint-disable-next-line rti/no-raw-models -- as above
  await ts.server.db.models['carrier-inout'].bulkCreate(
    moves.map(([sn, code, direction, w, d]) => ({
      orgId: ts.orgA,
      carrierId: id[sn],
      sn,
      carrierCodeId: id[code],
      direction,
      warehouseId: id[w],
      confirmTime: at(d),
    })),
  );
});
afterAll(() => ts?.close());

const BIN = { code: 'BIN', arrivals: 2, departures: 2, cycles: 2, cycleDays: 20, turnsPerYear: 18.25, visits: 2, carrierDays: 16, dwellDays: 8 };
const CRATE = { code: 'CRATE', arrivals: 5, departures: 5, cycles: 1, cycleDays: 30, turnsPerYear: 12.17, visits: 3, carrierDays: 31, dwellDays: 10.33 };

describe('a carrier re-coded in the period', () => {
  it('per carrier code: each event under the code on its row', async () => {
    const { list } = await ok(ts.a, '/pool-analytics/turns/list', BY_CODE);
    expect(list).toEqual([expect.objectContaining(BIN), expect.objectContaining(CRATE)]);
  });

  it("narrowed to a code: that code's events only", async () => {
    expect((await ok(ts.a, '/pool-analytics/turns/list', { ...BY_CODE, carrierCodeId: id.BIN })).list).toEqual([expect.objectContaining(BIN)]);
    expect((await ok(ts.a, '/pool-analytics/turns/list', { ...BY_CODE, carrierCodeId: id.CRATE })).list).toEqual([expect.objectContaining(CRATE)]);
  });

  it('per warehouse the code plays no part', async () => {
    const { list } = await ok(ts.a, '/pool-analytics/turns/list', PERIOD);
    expect(list).toEqual([
      expect.objectContaining({ code: 'W1', arrivals: 3, departures: 4, cycles: 2, cycleDays: 25, visits: 2, carrierDays: 27, dwellDays: 13.5 }),
      expect.objectContaining({ code: 'W2', arrivals: 4, departures: 3, cycles: 1, cycleDays: 20, visits: 3, carrierDays: 20, dwellDays: 6.67 }),
    ]);
  });

  it("the pool-size check takes each code's cycles", async () => {
    const { list } = await ok(ts.a, '/pool-analytics/pool-size/list', PERIOD);
    expect(list).toEqual([
      expect.objectContaining({ code: 'BIN', owned: 1, cycleDays: 20 }),
      expect.objectContaining({ code: 'CRATE', owned: 1, cycleDays: 30 }),
    ]);
  });
});
