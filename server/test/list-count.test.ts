/**
 * A list's total is exact up to COUNT_CAP matches (or the page asked for, when deeper) and a
 * flagged lower bound past it: counting millions of rows on every page turn was most of a
 * list call (bench/shipping/list-scale.ts). Scope and filters bound the count like the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '../src/resources/repository';
import { startTestServer, type TestServer } from './support/test-server';

const ROWS = COUNT_CAP + 25;
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
  const now = new Date();
  const rows = Array.from({ length: ROWS }, (_, i) => ({ orgId: ts.orgA, name: `P-${String(i).padStart(6, '0')}`, createdAt: now, updatedAt: now }));
  for (let i = 0; i < rows.length; i += 1000) await ts.server.db.models.project.bulkCreate(rows.slice(i, i + 1000), { hooks: false, validate: false });
  expect((await ts.b.call('/project/create', { name: 'B-only' })).body.code).toBe(0);
}, 120_000);
afterAll(() => ts?.close());

const list = async (body: Record<string, unknown>) => {
  const r = await ts.a.call('/project/list', body);
  expect(r.body.code).toBe(0);
  return r.body.data as { list: Array<{ name: string }>; total: number; totalCapped?: boolean };
};

describe('list totals', () => {
  it('stops counting at the cap and says the total is a lower bound', async () => {
    const first = await list({ page: 1, limit: 10 });
    expect(first).toMatchObject({ total: COUNT_CAP, totalCapped: true });
    expect(first.list).toHaveLength(10);
  });

  it('counts past the cap to the page asked for, so that page and the next stay reachable', async () => {
    const deep = await list({ page: COUNT_CAP / 10 + 1, limit: 10 }); // rows 10,001-10,010
    expect(deep.list).toHaveLength(10);
    expect(deep).toMatchObject({ total: COUNT_CAP + 10, totalCapped: true });
    const last = await list({ page: COUNT_CAP / 10 + 3, limit: 10 }); // rows 10,021-10,025: the end is in sight
    expect(last.list).toHaveLength(5);
    expect(last.total).toBe(ROWS);
    expect(last.totalCapped).toBeUndefined();
  });

  it('is exact, with no flag, under the cap (filters and scope count like the page)', async () => {
    const some = await list({ name: 'P-00001', limit: 5 }); // P-000010 … P-000019
    expect(some.total).toBe(10);
    expect('totalCapped' in some).toBe(false);
    const other = (await ts.b.call('/project/list', {})).body.data;
    expect(other).toEqual({ list: [expect.objectContaining({ name: 'B-only' })], total: 1 });
  });
});
