/**
 * `search: "prefix"`: starts with, case-insensitive, special characters taken literally, and
 * (SQLite) answered from the field's NOCASE index — the filter a serial or document number in
 * a table of millions needs (bench/shipping/list-scale.ts: a contains-scan of 5 M lines took
 * seconds). MariaDB runs the same assertions on its _ci collation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMetadata } from '@rti/metadata';
import { createDatabase } from '../src/db';
import { indexPlan } from '../src/db/models';
import { createTestDatabase } from './support/test-database';
import { startTestServer, type TestServer } from './support/test-server';

const meta = structuredClone(loadMetadata());
meta.resources.project.fields.find((f) => f.name === 'name')!.search = 'prefix';
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ metadata: meta });
  for (const name of ['KLT-100', 'klt-200', 'XKLT-300', 'A%B', 'AxB', 'A_C']) expect((await ts.a.call('/project/create', { name })).body.code).toBe(0);
  expect((await ts.b.call('/project/create', { name: 'KLT-900' })).body.code).toBe(0);
});
afterAll(() => ts?.close());

const names = async (body: Record<string, unknown>) => {
  const r = await ts.a.call('/project/list', { limit: 100, sortByName: true, ...body });
  expect(r.body.code).toBe(0);
  return { names: r.body.data.list.map((p: { name: string }) => p.name), total: r.body.data.total };
};

describe('prefix search', () => {
  it('matches the beginning, whatever the case, in the caller organisation only', async () => {
    expect(await names({ name: 'klt' })).toEqual({ names: ['KLT-100', 'klt-200'], total: 2 });
    expect(await names({ name: ' KLT-1 ' })).toEqual({ names: ['KLT-100'], total: 1 });
    // not "contains": the middle of a value does not match
    expect((await names({ name: 'LT-' })).total).toBe(0);
  });

  it('takes % and _ literally and ignores a blank value', async () => {
    expect((await names({ name: 'A%' })).names).toEqual(['A%B']);
    expect((await names({ name: 'A_' })).names).toEqual(['A_C']);
    expect((await names({ name: '  ' })).total).toBe(6);
  });

  it('refuses a non-text value and an overlong one like any text filter', async () => {
    expect((await ts.a.call('/project/list', { name: { $gt: '' } })).body.code).not.toBe(0);
    expect((await ts.a.call('/project/list', { name: 'x'.repeat(300) })).body.code).not.toBe(0);
  });

  it('replaces the plain index by a case-insensitive one, kept beside a unique key', () => {
    const plans = indexPlan(meta.resources.project);
    expect(plans).toContainEqual(expect.objectContaining({ columns: ['org_id', 'name'], unique: true }));
    expect(plans).toContainEqual({ name: 'ix_project_org_id_name_ci', columns: ['org_id', 'name'], unique: false, nocase: ['name'] });
    const detail = structuredClone(meta.resources.project);
    detail.fields.find((f) => f.name === 'name')!.unique = undefined;
    expect(indexPlan(detail).filter((p) => p.columns.join() === 'org_id,name')).toEqual([
      { name: 'ix_project_org_id_name_ci', columns: ['org_id', 'name'], unique: false, nocase: ['name'] },
    ]);
  });

  it('reads one range of that index on SQLite (no scan of the table)', async () => {
    if (ts.db.dialect !== 'sqlite') return;
    const sequelize = ts.server.db.sequelize as unknown as { options: { logging: unknown }; query(sql: string, o: object): Promise<Array<{ detail: string }>> };
    const sqls: string[] = [];
    sequelize.options.logging = (sql: string) => sqls.push(sql.replace(/^Executing \([^)]*\): /, ''));
    await names({ name: 'klt' });
    sequelize.options.logging = false;
    const own = sqls.filter((s) => /^SELECT/.test(s) && /FROM `project`/.test(s) && /LIKE/.test(s));
    expect(own.length).toBe(2); // the page and the count
    for (const sql of own) {
      const plan = (await sequelize.query(`EXPLAIN QUERY PLAN ${sql}`, { type: 'SELECT' })).map((p) => p.detail).join(' | ');
      expect(plan).toMatch(/USING (COVERING )?INDEX ix_project_org_id_name_ci \(org_id=\? AND name>\? AND name<\?\)/);
    }
  });
});

describe('an index added to an analysed SQLite database', () => {
  it('gets its statistics at once (the planner would take it for a unique one), and none are made up where there were none', async () => {
    const stats = async (analysed: boolean) => {
      const tdb = await createTestDatabase();
      if (tdb.dialect !== 'sqlite') return tdb.drop().then(() => null);
      try {
        const plain = structuredClone(loadMetadata());
        const before = createDatabase(tdb.url, { metadata: plain, log: () => undefined });
        await before.migrate();
        await before.sequelize.query(
          `INSERT INTO project (org_id, name, created_at, updated_at) VALUES ${Array.from({ length: 50 }, (_, i) => `(1, 'P-${i}', '2026-01-01', '2026-01-01')`).join(', ')}`,
        );
        if (analysed) await before.sequelize.query('ANALYZE');
        await before.close();
        const after = createDatabase(tdb.url, { metadata: meta, log: () => undefined });
        await after.migrate();
        const [rows] = await after.sequelize.query(`SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'`);
        const found = rows.length
          ? ((await after.sequelize.query(`SELECT idx, stat FROM sqlite_stat1 WHERE idx = 'ix_project_org_id_name_ci'`))[0] as Array<{ stat: string }>)
          : null;
        await after.close();
        return found;
      } finally {
        await tdb.drop();
      }
    };
    const analysed = await stats(true);
    if (analysed === null && process.env.TEST_MYSQL_URL) return; // SQLite only
    expect(analysed).toEqual([{ idx: 'ix_project_org_id_name_ci', stat: expect.stringMatching(/^50 50 1/) }]);
    expect(await stats(false)).toBeNull();
  });
});
