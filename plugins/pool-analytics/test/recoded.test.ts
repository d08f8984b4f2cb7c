/**
 * A carrier re-coded in the period counts under ONE code — the code of its latest in/out row in
 * the period — in the turns per carrier code and in the pool-size check, not under both (the
 * grouped read put it under the highest code id of its rows, and the carriers per code counted
 * it under every code it carried). Figures computed by hand below.
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
 * R's latest row (day 30) is BIN: all of R counts under BIN.
 *   R at W1: there at the start 0→1, 10→21, 30→60 = 42 held, 3 visits, departures 1, 21 → 1 cycle of 20
 *   R at W2: 3→8, 23→28 = 10 held, 2 visits, departures 8, 28 → 1 cycle of 20
 *   BIN: 1 carrier, 4 arrivals, 4 departures, 2 cycles of 20 d (turns 18.25), 5 visits, 52 carrier-days, dwell 10.4
 *   S at W1: 0→2, 16→32 = 18 held, 2 visits, departures 2, 32 → 1 cycle of 30
 *   S at W2: 4→14, 34→60 = 36 held, 2 visits, 1 departure
 *   CRATE: 1 carrier, 3 arrivals, 3 departures, 1 cycle of 30 d (turns 12.17), 4 visits, 54 carrier-days, dwell 13.5
 * Before the fix: R's rows at both warehouses under CRATE (the higher id), and R counted under BIN and CRATE.
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

const BIN = {
  code: 'BIN',
  carriers: 1,
  arrivals: 4,
  departures: 4,
  cycles: 2,
  cycleDays: 20,
  turnsPerYear: 18.25,
  visits: 5,
  carrierDays: 52,
  dwellDays: 10.4,
};
const CRATE = {
  code: 'CRATE',
  carriers: 1,
  arrivals: 3,
  departures: 3,
  cycles: 1,
  cycleDays: 30,
  turnsPerYear: 12.17,
  visits: 4,
  carrierDays: 54,
  dwellDays: 13.5,
};

describe('a carrier re-coded in the period', () => {
  it('counts once, under the code of its latest row, per carrier code', async () => {
    const { list } = await ok(ts.a, '/pool-analytics/turns/list', BY_CODE);
    expect(list).toEqual([expect.objectContaining(BIN), expect.objectContaining(CRATE)]);
  });

  it('narrowed to a code: all of its period under its latest code, none under the earlier one', async () => {
    expect((await ok(ts.a, '/pool-analytics/turns/list', { ...BY_CODE, carrierCodeId: id.BIN })).list).toEqual([expect.objectContaining(BIN)]);
    expect((await ok(ts.a, '/pool-analytics/turns/list', { ...BY_CODE, carrierCodeId: id.CRATE })).list).toEqual([expect.objectContaining(CRATE)]);
  });

  it('per warehouse nothing changes: each carrier once per warehouse', async () => {
    const { list } = await ok(ts.a, '/pool-analytics/turns/list', PERIOD);
    // W1: R 42 + S 18 held over 3 + 2 visits; W2: R 10 + S 36 over 2 + 2
    expect(list).toEqual([
      expect.objectContaining({ code: 'W1', carriers: 2, arrivals: 3, departures: 4, cycles: 2, cycleDays: 25, visits: 5, carrierDays: 60, dwellDays: 12 }),
      expect.objectContaining({ code: 'W2', carriers: 2, arrivals: 4, departures: 3, cycles: 1, cycleDays: 20, visits: 4, carrierDays: 46, dwellDays: 11.5 }),
    ]);
  });

  it('the pool-size check takes its cycle under its latest code', async () => {
    const { list } = await ok(ts.a, '/pool-analytics/pool-size/list', PERIOD);
    expect(list).toEqual([
      expect.objectContaining({ code: 'BIN', owned: 1, cycleDays: 20 }),
      expect.objectContaining({ code: 'CRATE', owned: 1, cycleDays: 30 }),
    ]);
  });
});
