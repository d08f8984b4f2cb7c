/**
 * The partner statement read in bounded chunks (README "Speed"): the visits open at the month's
 * start are found per warehouse and carrier range — `chunk` (warehouse, carrier) groups a read at
 * most, the month's rows of the same carriers beside them — and only the longest `maxLines`
 * visits beyond the free period are kept as the chunks pass. Read with chunks of 2 groups and 2
 * lines, the statement is the one computed by hand below and the one read in a single chunk;
 * no grouped read answers more than 2 groups, nor a group whose visit ended before the month.
 * Fails when the reads are not chunked (one read of every group), when closed visits come back, when a carrier range misses the month's rows of a carrier without rows before
 * the month, or when the lines are not cut to the longest.
 */
import { DAY_MS, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { Enums } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk as ok } from '../../../server/test/support/fixtures';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { STATEMENT_CHUNK, statementRows } from '../server/partners';

let ts: TestServer;
let partner: number;
const c: Record<string, number> = {};

/** day n: 2026-01-01 + n days, UTC; February 2026 is [day 31, day 59) */
const D0 = Date.UTC(2026, 0, 1);
const at = (n: number) => new Date(D0 + n * DAY_MS);
const NOW = at(400).getTime();

/*
 * Partner P (3 free days) owns warehouses W and W2. Carriers created in the order c1 … c6 (ids
 * ascending). February 2026 (days 31–59), by hand:
 *
 *   c1  in W 10 (stays)              open at the start, still there: 28 d held, beyond 13 → 28
 *   c2  in W 20 · out W 25 · in W 40 · out W 45   the first visit ends before the month; received 40, returned 45: 5 d, beyond 43 → 2
 *   c3  in W 5 · out W 35            open at the start, returned: 31 → 35 = 4 d, beyond 8 → 4
 *   c4  out W 33 · in W 50 (stays)   no row before the month; the departure follows no arrival (no visit); received 50: 9 d, beyond 53 → 6
 *   c5  in W 30 (stays)              open at the start (day 30 is January's last): 28 d, beyond 33 → 26
 *   c6  in W2 40 · out W2 42         received and returned: 2 d, within the free period
 *
 *   opening 3 (c1, c3, c5), received 3 (c2, c4, c6), returned 3 (c2, c3, c6), closing 3 (c1, c4, c5),
 *   carrier-days 28 + 5 + 4 + 9 + 28 + 2 = 76, beyond 28 + 2 + 4 + 6 + 26 = 66 over 5 visits;
 *   longest first: c1 28, c5 26, c4 6, c3 4, c2 2.
 *
 * The reads before the month answer only the groups whose visit is open at its start (c2's visit
 * ended before it). With chunks of 2 groups, W's answer [c1, c3] and [c5]; the month's rows are
 * read for the carriers (0, c3] and above c3 — c2's and c4's among them.
 */
beforeAll(async () => {
  ts = await startTestServer({ plugins: ['shipping', 'inventory', 'pool-analytics'] });
  const projectId = (await ok(ts.a, '/project/create', { name: 'Pool' })).id;
  const box = (await ok(ts.a, '/carrier-code/create', { code: 'BOX', name: 'Box', projectId, type: 10, available: true })).id;
  partner = (await ok(ts.a, '/supplier-customer/create', { type: Enums.supplierCustomerType.customer, entCode: 'P1', name: 'Partner P' })).id;
  const site = (await ok(ts.a, '/location/create', { name: 'P site', type: 20, supplierCustomerId: partner, longitude: 120, latitude: 30 })).id;
  const w = (await ok(ts.a, '/warehouse/create', { code: 'W', name: 'W', locationId: site })).id;
  const w2 = (await ok(ts.a, '/warehouse/create', { code: 'W2', name: 'W2', locationId: site })).id;
  await ok(ts.a, '/pool-partner-terms/create', { supplierCustomerId: partner, freeDays: 3 });
  for (const sn of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']) c[sn] = (await ok(ts.a, '/carrier/create', { sn, carrierCodeId: box })).id;
  const IN = Enums.inoutDirection.inbound;
  const OUT = Enums.inoutDirection.outbound;
  const moves: Array<[string, number, number, number]> = [
    ['c1', IN, w, 10],
    ['c2', IN, w, 20],
    ['c2', OUT, w, 25],
    ['c2', IN, w, 40],
    ['c2', OUT, w, 45],
    ['c3', IN, w, 5],
    ['c3', OUT, w, 35],
    ['c4', OUT, w, 33],
    ['c4', IN, w, 50],
    ['c5', IN, w, 30],
    ['c6', IN, w2, 40],
    ['c6', OUT, w2, 42],
  ];
  // eslint-disable-next-line rti/no-raw-models -- the test writes what gate passes and receipts would
  await ts.server.db.models['carrier-inout'].bulkCreate(
    moves.map(([sn, direction, warehouseId, d]) => ({ orgId: ts.orgA, carrierId: c[sn], sn, carrierCodeId: box, direction, warehouseId, confirmTime: at(d) })),
  );
});
afterAll(() => ts?.close());

/** the plugin's context as far as the statement reads it, counting the (warehouse, carrier) groups each grouped read answers */
function counted(): { ctx: PluginServerContext; call: RequestContext; groupReads: number[] } {
  const groupReads: number[] = [];
  const ctx = {
    zoneOf: async () => 'UTC',
    repo(resource: string, call: RequestContext) {
      const repo = ts.server.repo(resource, call);
      if (resource !== 'carrier-inout') return repo;
      return new Proxy(repo, {
        get(target, key) {
          if (key !== 'rows') return Reflect.get(target, key, target);
          return async (...args: Parameters<typeof repo.rows>) => {
            const got = await target.rows(...args);
            if (args[1]?.group) groupReads.push(got.length);
            return got;
          };
        },
      });
    },
  } as unknown as PluginServerContext;
  return { ctx, call: ts.server.systemContext(ts.orgA), groupReads };
}

describe('partner statement in bounded chunks', () => {
  it('February by hand, read 2 groups at a time, the 2 longest visits kept', async () => {
    const { ctx, call, groupReads } = counted();
    const rows = await statementRows(ctx, call, { month: '2026-02', partnerId: partner }, NOW, { chunk: 2, maxLines: 2 });
    expect(rows).toEqual([
      expect.objectContaining({
        partner: 'Partner P',
        code: 'BOX',
        freeDays: 3,
        opening: 3,
        received: 3,
        returned: 3,
        closing: 3,
        carrierDays: 76,
        excessDays: 66,
        overFree: 5,
      }),
    ]);
    expect(rows[0].lines.map((l) => [l.sn, l.warehouse, l.excessDays])).toEqual([
      ['c1', 'W', 28],
      ['c5', 'W', 26],
    ]);
    expect(rows[0].lines[1]).toMatchObject({ arrived: at(30).getTime(), left: null, heldDays: 29 });
    // W: [c1, c3], [c5]; W2: none (c6 has no row before the month)
    expect(groupReads).toEqual([2, 1, 0]);
  });

  it('the same statement read in one chunk (every line kept)', async () => {
    const small = await statementRows(counted().ctx, counted().call, { month: '2026-02', partnerId: partner }, NOW, { chunk: 1 });
    const { ctx, call, groupReads } = counted();
    const whole = await statementRows(ctx, call, { month: '2026-02', partnerId: partner }, NOW);
    expect(groupReads).toEqual([3, 0]);
    expect(STATEMENT_CHUNK).toBeGreaterThan(4);
    expect(whole).toEqual(small);
    expect(whole[0].lines.map((l) => [l.sn, l.excessDays])).toEqual([
      ['c1', 28],
      ['c5', 26],
      ['c4', 6],
      ['c3', 4],
      ['c2', 2],
    ]);
  });
});
