/**
 * The demo's report history (issue 19 item 6): on a freshly seeded server with the inventory
 * and reports plugins, every report of the report group shows rows on first start — daily,
 * weekly with movement over the weeks, three-batch and idle carriers — and a second seeding
 * adds no history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDemo, type SeededDemo } from './support/seeded-demo';
import { SCALES, seedServer } from '../src/index';
import { DEMO_CUSTOMER_REPORT } from '../src/seed-demo';
import { REPORT_HISTORY_DAYS } from '../src/seed-reports';

let demo: SeededDemo;
const call = (path: string, body: unknown = {}) => demo.raw(path, body);

beforeAll(async () => {
  demo = await seededDemo(['shipping', 'inventory', 'reports', DEMO_CUSTOMER_REPORT]);
}, 180_000);
afterAll(() => demo?.close());

describe('report history of the demo', () => {
  it('shows every report with rows on first start', async () => {
    const daily = await call('/inventory-report/list', { limit: 100 });
    expect(daily.code, daily.message).toBe(0);
    expect(daily.data.list.reduce((s: number, r: any) => s + r.inStock, 0)).toBeGreaterThan(0);
    const week = await call('/inventory-report/week', { limit: 100 });
    expect(week.data.list.some((r: any) => r.inbound + r.outbound > 0)).toBe(true);
    expect(week.data.list.some((r: any) => r.daysClosed >= 6)).toBe(true);
    const days = await call('/inventory-report/week/detail', { time: [Date.now() - 30 * 86_400_000, Date.now()], limit: 100 });
    expect(new Set(days.data.list.map((r: any) => r.day)).size).toBeGreaterThanOrEqual(REPORT_HISTORY_DAYS);
    const three = await call('/report-three-batch/detail', {});
    expect(three.data.total).toBe(2);
    expect(three.data.list[0].total).toBeGreaterThan(0);
    expect((await call('/idle/carrier-code/list', {})).data.total).toBeGreaterThan(0);
    expect((await call('/idle/carrier/list', {})).data.total).toBeGreaterThan(0);
  });

  it('has one customer report switched on for the demo organisation, showing rows; off elsewhere', async () => {
    const listed = await call('/organization/plugin/list');
    expect(listed.data).toContainEqual(expect.objectContaining({ plugin: DEMO_CUSTOMER_REPORT, enabled: true }));
    const rows = await call(`/${DEMO_CUSTOMER_REPORT}/list`, { limit: 100 });
    expect(rows.code, rows.message).toBe(0);
    expect(rows.data.list.reduce((s: number, r: any) => s + r.inStock, 0)).toBeGreaterThan(0);
    const menu = await call('/permission/list');
    expect(menu.data.permissions).toContain(`/report/${DEMO_CUSTOMER_REPORT}/list`);
    const acme = Number((await demo.server.db.models.organization.findOne({ where: { entryCode: 'acme' } }))!.get('id'));
    // signed in without an entry code: the platform administrator may act in either organisation
    const login = await fetch(demo.url + '/api/account/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Admin@12345' }),
    });
    const anywhere = ((await login.json()) as { data: { token: string } }).data.token;
    const other = await fetch(demo.url + '/api' + `/${DEMO_CUSTOMER_REPORT}/list`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: anywhere, OrgId: String(acme) },
      body: '{}',
    });
    expect(((await other.json()) as { code: number }).code).toBe(10005);
  });

  it('shows inventory levels, rebalancing suggestions and adjustment orders on first start (issue 18 item 5)', async () => {
    const realtime = await call('/inventory/realtime', { limit: 100 });
    expect(realtime.code, realtime.message).toBe(0);
    const levels = new Set(realtime.data.list.filter((r: any) => r.min !== null).map((r: any) => r.levelKey ?? r.level));
    expect(levels.size).toBeGreaterThanOrEqual(2);
    const suggested = await call('/inventory/suggestion', { limit: 100 });
    expect(suggested.data.total).toBeGreaterThan(0);
    const adjustments = await call('/inventory/adjustment/list', { limit: 10 });
    expect(adjustments.data.list.map((a: any) => a.status).sort()).toEqual([1, 2]);
  });

  it('adds no history on a second run', async () => {
    const count = () =>
      Promise.all(['inventory-snapshot', 'carrier-code-warehouse', 'inventory-adjustment'].map((m) => demo.server.db.sequelize.models[m].count()));
    const before = await count();
    await seedServer(demo.server, { scale: SCALES.small });
    expect(await count()).toEqual(before);
  }, 120_000);
});
