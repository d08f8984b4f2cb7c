/**
 * The pool analytics demo: on a freshly seeded server with the pool analytics plugin every
 * partner of the demo organisation has its agreed free period (customers 21 days, suppliers 10,
 * packaging services 30), a customer owns each VMI warehouse's site so its balance holds carriers,
 * and a second seeding adds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDemo, type SeededDemo } from './support/seeded-demo';
import { SCALES, seedServer } from '../src/index';
import { DEMO_FREE_DAYS } from '../src/seed-pool';

let demo: SeededDemo;
const call = (path: string, body: unknown = {}) => demo.ok(path, body);

beforeAll(async () => {
  demo = await seededDemo(['shipping', 'inventory', 'pool-analytics']);
}, 240_000);
afterAll(() => demo?.close());

describe('pool analytics demo', () => {
  it('every partner has its agreed free period by type', async () => {
    const partners = (await call('/supplier-customer/list', { page: 1, limit: 100 })).list as any[];
    const terms = (await call('/pool-partner-terms/list', { page: 1, limit: 100 })).list as any[];
    expect(partners.length).toBeGreaterThan(0);
    expect(terms).toHaveLength(partners.length);
    for (const p of partners) expect(terms.find((t) => t.supplierCustomerId === p.id)?.freeDays).toBe(DEMO_FREE_DAYS[p.type]);
  });

  it('a customer holds the carriers at its VMI warehouse: the balances show something on first start', async () => {
    const balances = await call('/pool-analytics/partner-balance/list', { page: 1, limit: 10 });
    expect(balances.total).toBeGreaterThan(0);
    const held = (balances.list as any[]).filter((b) => b.held > 0);
    expect(held.length).toBeGreaterThan(0);
    for (const b of held) expect(b).toMatchObject({ type: 20, warehouses: 1, freeDays: 21 });
  });

  it('the turns and the pool-size check show the seeded history on first start (the kept flows built by the first read)', async () => {
    const turns = await call('/pool-analytics/turns/list', { page: 1, limit: 10 });
    expect(turns.total).toBeGreaterThan(0);
    expect((turns.list as any[]).some((r) => r.departures > 0)).toBe(true);
    const size = await call('/pool-analytics/pool-size/list', {});
    expect((size.list as any[]).some((r) => r.sent > 0)).toBe(true);
  });

  it('adds nothing when seeded again', async () => {
    const before = (await call('/pool-partner-terms/list', { page: 1, limit: 1 })).total;
    await seedServer(demo.server, { scale: SCALES.small });
    expect((await call('/pool-partner-terms/list', { page: 1, limit: 1 })).total).toBe(before);
  });
});
