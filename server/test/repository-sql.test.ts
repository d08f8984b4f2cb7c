/**
 * The scoped repository's SQL fragments (quoted columns, epoch days, days since, a period's
 * range, a CASE mapping, conditional aggregates, calendar keys): what a plugin writes computed
 * columns and grouped figures with instead of the raw handle. Each answers the same figure on
 * SQLite and MariaDB (TEST_MYSQL_URL) and stays inside the caller's scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Op, col, fn, literal } from 'sequelize';
import { loadMetadata } from '@rti/metadata';
import type { RequestContext } from '../src/http/types';
import { rowsInBothOrgs } from './access-fixtures';
import { startTestServer, type TestServer } from './support/test-server';

const metadata = loadMetadata();
let ts: TestServer;
let ctxA: RequestContext;
let ctxB: RequestContext;
let a: number;
let b: number;
const DAY = 86_400_000;
const T1 = new Date('2026-03-05T06:00:00.000Z');
const T2 = new Date('2026-04-20T18:30:15.000Z');

beforeAll(async () => {
  ts = await startTestServer({ metadata });
  const rows = await rowsInBothOrgs(ts);
  ctxA = ts.server.systemContext(ts.orgA);
  ctxB = ts.server.systemContext(ts.orgB);
  a = rows.a.carrier.id;
  b = rows.b.carrier.id;
  await ts.server.repo('carrier', ctxA).updateWhere({ inboundTime: T1, startTime: T2, endTime: null, cycleCount: 3 }, { id: a });
  await ts.server.repo('carrier', ctxB).updateWhere({ inboundTime: T1, startTime: T2, endTime: null, cycleCount: 3 }, { id: b });
}, 120_000);
afterAll(() => ts?.close());

const both = () => ({ id: { [Op.in]: [a, b] } });

describe('SQL fragments of the scoped repository', () => {
  it('quoted: the dialect quotes the column of a field; an unknown field is refused', () => {
    const repo = ts.server.repo('carrier', ctxA);
    // Sequelize quotes with backticks on both SQLite and MariaDB
    expect(repo.quoted('inboundTime')).toBe('`inbound_time`');
    expect(() => repo.quoted('nope')).toThrow(/no field "nope"/);
    expect(() => repo.quoted('id; DROP TABLE carrier')).toThrow(/no field/);
  });

  // MariaDB divides to 4 more decimals than the dividend has (div_precision_increment): a second is 0.00001 days
  it('epochDays / epochDaysOf: a datetime as fractional days since 1970, per row and of an aggregate', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const rows = await repo.rows(both(), {
      attributes: ['id', [literal(repo.epochDays('inboundTime')), 'd'], [literal(`${repo.epochDays('startTime')} - ${repo.epochDays('inboundTime')}`), 'span']],
    });
    expect(rows.map((r) => Number(r.id))).toEqual([a]);
    expect(Number(rows[0].d)).toBeCloseTo(T1.getTime() / DAY, 4);
    expect(Number(rows[0].span)).toBeCloseTo((T2.getTime() - T1.getTime()) / DAY, 4);
    const [agg] = await repo.rows(both(), { attributes: [[literal(repo.epochDaysOf(`MAX(${repo.quoted('startTime')})`)), 'last']] });
    expect(Number(agg.last)).toBeCloseTo(T2.getTime() / DAY, 4);
  });

  it('daysSince: the days from a datetime until a moment, null where the field is null; usable in updateWhere', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const at = new Date(T1.getTime() + 2.5 * DAY);
    const [r] = await repo.rows({ id: a }, { attributes: [[literal(`ROUND(${repo.daysSince('inboundTime', at)}, 2)`), 'd']] });
    expect(Number(r.d)).toBe(2.5);
    const [n] = await repo.rows({ id: a }, { attributes: [[literal(repo.daysSince('endTime', at)), 'd']] });
    expect(n.d).toBeNull();
    // B's carrier is not written though the condition names it
    expect(await repo.updateWhere({ turnoverDays: literal(`ROUND(${repo.daysSince('inboundTime', at)}, 2)`) }, both())).toBe(1);
    expect(Number((await repo.rows({ id: a }, { attributes: ['turnoverDays'] }))[0].turnoverDays)).toBe(2.5);
    expect((await ts.server.repo('carrier', ctxB).rows({ id: b }, { attributes: ['turnoverDays'] }))[0].turnoverDays ?? null).not.toBe(2.5);
    expect(() => repo.daysSince('inboundTime', new Date(Number.NaN))).toThrow(/invalid date/);
  });

  it('timeRange: both ends included, the scope ANDed', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const t = T1.getTime();
    expect(await repo.count({ ...both(), ...repo.timeRange('inboundTime', t, t) })).toBe(1);
    expect(await repo.count({ ...both(), ...repo.timeRange('inboundTime', t - DAY, t + DAY) })).toBe(1);
    expect(await repo.count({ ...both(), ...repo.timeRange('inboundTime', t + 1, t + DAY) })).toBe(0);
    expect(await repo.count({ ...both(), ...repo.timeRange('inboundTime', t - DAY, t - 1) })).toBe(0);
    expect(() => repo.timeRange('nope', 0, 1)).toThrow(/no field "nope"/);
  });

  it('caseOf: an integer mapping as a grouping key and as an update value; NULL for none; non-integers refused', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const grouped = await repo.rows(both(), {
      attributes: [
        [
          repo.caseOf('id', [
            [a, 7],
            [b, 8],
          ]),
          'g',
        ],
        [fn('COUNT', col('id')), 'n'],
      ],
      group: ['g'],
    });
    expect(grouped.map((r) => [Number(r.g), Number(r.n)])).toEqual([[7, 1]]);
    const [none] = await repo.rows({ id: a }, { attributes: [[repo.caseOf('id', []), 'g']] });
    expect(none.g).toBeNull();
    expect(
      await repo.updateWhere(
        {
          cycleCount: repo.caseOf('id', [
            [a, 11],
            [b, 12],
          ]),
        },
        both(),
      ),
    ).toBe(1);
    expect(Number((await repo.rows({ id: a }, { attributes: ['cycleCount'] }))[0].cycleCount)).toBe(11);
    expect(Number((await ts.server.repo('carrier', ctxB).rows({ id: b }, { attributes: ['cycleCount'] }))[0].cycleCount)).toBe(3);
    expect(() => repo.caseOf('id', [[a, 1.5]])).toThrow(/case/);
    expect(() => repo.caseOf('id', [[Number('1 OR 1'), 1]])).toThrow(/case/);
  });

  it('aggregateWhen: a figure of the rows with one value beside the others of the group', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const status = Number((await repo.rows({ id: a }, { attributes: ['status'] }))[0].status);
    const [r] = await repo.rows(both(), {
      attributes: [
        [repo.aggregateWhen('SUM', 'status', status, '1'), 'same'],
        [repo.aggregateWhen('SUM', 'status', status + 1, '1'), 'other'],
        [repo.aggregateWhen('MIN', 'status', status, repo.epochDays('inboundTime')), 'first'],
      ],
    });
    expect(Number(r.same)).toBe(1);
    expect(r.other).toBeNull();
    expect(Number(r.first)).toBeCloseTo(T1.getTime() / DAY, 4);
  });

  it('calendarKey: the UTC day or month of a datetime as a grouping key', async () => {
    const repo = ts.server.repo('carrier', ctxA);
    const found = await repo.rows(both(), {
      attributes: [
        [repo.calendarKey('startTime', 'day'), 'day'],
        [repo.calendarKey('startTime', 'month'), 'month'],
      ],
    });
    expect(found.map((r) => [String(r.day), String(r.month)])).toEqual([['2026-04-20', '2026-04']]);
    expect(() => repo.calendarKey('nope', 'day')).toThrow(/no field "nope"/);
  });

  it('previous + groupedOver: each row with the row before it in its sequence, summed per group in one statement; the other organisation never the row before', async () => {
    const IN = 10;
    const OUT = 20;
    const at = (d: number) => new Date(T1.getTime() + d * DAY);
    // a carrier of its own (no fixture row before) at warehouse 1: out 0, in 2, out 5, in 9, out 12; at warehouse 2: in 1, out 4.
    // B: rows between them in its own organisation with the same ids
    const rowsOf = (list: Array<[number, number, number]>) =>
      list.map(([w, d, t]) => ({ carrierId: 990_001, sn: 'SQL-PREV', warehouseId: w, direction: d, confirmTime: at(t) }));
    await ts.server.repo('carrier-inout', ctxA).insertMany(
      rowsOf([
        [1, OUT, 0],
        [1, IN, 2],
        [1, OUT, 5],
        [1, IN, 9],
        [1, OUT, 12],
        [2, IN, 1],
        [2, OUT, 4],
      ]),
    );
    await ts.server.repo('carrier-inout', ctxB).insertMany(
      rowsOf([
        [1, IN, 11],
        [1, OUT, 3],
      ]),
    );
    const repo = ts.server.repo('carrier-inout', ctxA);
    const before = (d: number) => repo.epochDaysOf(repo.previous(['warehouseId', 'carrierId'], 'confirmTime', { direction: d }));
    const dir = repo.quoted('direction');
    const got = await repo.groupedOver(
      { sn: 'SQL-PREV' },
      {
        d: dir,
        t: repo.epochDays('confirmTime'),
        pin: `CASE WHEN ${dir} = ${OUT} THEN ${before(IN)} END`,
        pout: `CASE WHEN ${dir} = ${OUT} THEN ${before(OUT)} END`,
      },
      ['warehouseId'],
      {
        n: 'COUNT(*)',
        visits: 'SUM(CASE WHEN pin IS NOT NULL AND (pout IS NULL OR pin > pout) THEN 1 ELSE 0 END)',
        held: 'SUM(CASE WHEN pin IS NOT NULL AND (pout IS NULL OR pin > pout) THEN t - pin ELSE 0 END)',
        cycles: 'SUM(CASE WHEN pout IS NOT NULL THEN 1 ELSE 0 END)',
        cycleDays: 'SUM(CASE WHEN pout IS NOT NULL THEN t - pout ELSE 0 END)',
      },
    );
    const byWarehouse = Object.fromEntries(got.map((r) => [Number(r.warehouseId), r]));
    // warehouse 1: visits 2→5 and 9→12 (3 + 3 days), cycles 0→5 and 5→12 (5 + 7); B's arrival on day 11 would end a visit of 1 day at 12
    expect(Number(byWarehouse[1].n)).toBe(5);
    expect(Number(byWarehouse[1].visits)).toBe(2);
    expect(Number(byWarehouse[1].held)).toBeCloseTo(6, 4);
    expect(Number(byWarehouse[1].cycles)).toBe(2);
    expect(Number(byWarehouse[1].cycleDays)).toBeCloseTo(12, 4);
    // warehouse 2: one visit 1→4, no cycle
    expect([Number(byWarehouse[2].visits), Number(byWarehouse[2].held), Number(byWarehouse[2].cycles)]).toEqual([1, 3, 0]);
    await expect(repo.groupedOver({}, { 'x; DROP': '1' }, [], { n: 'COUNT(*)' })).rejects.toThrow(/column name/);
    expect(() => repo.previous(['nope'], 'confirmTime')).toThrow(/no field "nope"/);
  });
});
