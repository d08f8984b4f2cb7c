/**
 * Export pages by keyset: for any sort (with NULLs, ties and both directions) the pages
 * concatenated are exactly the list in the same order, each row once, in scope.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportPages } from '../src/resources/export-pages';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
  const wh = async (orgId: number, code: string) => Number((await ts.server.db.models.warehouse.create({ orgId, code, name: code })).get('id'));
  const [w1, w2, other] = [await wh(ts.orgA, 'W1'), await wh(ts.orgA, 'W2'), await wh(ts.orgB, 'W3')];
  const now = new Date();
  // transportTime: NULL for every 4th row, ties in between; distance mostly NULL.
  const rows = Array.from({ length: 47 }, (_, i) => ({
    orgId: ts.orgA,
    routeName: `R-${String(i).padStart(2, '0')}`,
    fromWarehouseId: w1,
    toWarehouseId: w2,
    transportTime: i % 4 === 0 ? null : i % 5,
    distance: i % 3 === 0 ? i : null,
    createdAt: now,
    updatedAt: now,
  }));
  await ts.server.db.models.route.bulkCreate([...rows, { ...rows[0], orgId: ts.orgB, routeName: 'R-other', fromWarehouseId: other, toWarehouseId: other }]);
});
afterAll(() => ts?.close());

const listed = async (body: Record<string, unknown>) =>
  (await ts.a.call('/route/list', { ...body, page: 1, limit: 100 })).body.data.list.map((r: any) => r.routeName);

it.each([
  [{}],
  [{ sortByTransportTime: true }],
  [{ sortByTransportTime: false }],
  [{ sortByDistance: true, sortByTransportTime: false }],
  [{ sortByTransportTime: false, sortById: true }],
])('pages of 4 sorted %j equal the list', async (sort) => {
  const repo = ts.server.repo('route', ts.server.systemContext(ts.orgA));
  const paged: string[] = [];
  for await (const page of exportPages(repo, sort, 4)) {
    expect(page.length).toBeLessThanOrEqual(4);
    paged.push(...page.map((r) => String(r.routeName)));
  }
  expect(paged).toHaveLength(47);
  expect(new Set(paged).size).toBe(47);
  expect(paged).toEqual(await listed(sort));
});
