/**
 * Row views (db/row-views.ts) type every value as a Model instance does, on every resource:
 * each model gets a row with its datetime, bool, json and decimal fields set, and the view of
 * that row must equal the instance's plain values (runs on SQLite and again on MariaDB).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orgFieldOf } from '../src/db/naming';
import { findRowViews } from '../src/db/row-views';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const sample: Record<string, unknown> = { datetime: new Date('2026-03-04T05:06:07.089Z'), bool: true, json: { a: [1, 'x'], b: null }, decimal: 12.5 };

it('answers what a Model instance answers, for every resource with typed columns', async () => {
  let checked = 0;
  for (const res of Object.values(ts.server.metadata.resources)) {
    const model = ts.server.db.models[res.name];
    const typed = res.fields.filter((f) => f.name in model.getAttributes() && sample[f.type as string] !== undefined);
    if (!typed.length) continue;
    const values: Record<string, unknown> = Object.fromEntries(
      typed.map((f) => [f.name, f.type === 'json' || f.type === 'refs' ? sample.json : sample[f.type as string]]),
    );
    const orgField = orgFieldOf(res);
    if (orgField && orgField !== 'id') values[orgField] = ts.orgA;
    // a row of typed columns only: a resource whose unique keys refuse it is left out
    const row = await model.create(values, { hooks: false, validate: false }).catch(() => null);
    if (!row) continue;
    const id = row.get('id');
    const [instance] = await model.findAll({ where: { id } });
    const [view] = await findRowViews(model, { where: { id } });
    const plain = instance.get({ plain: true }) as Record<string, unknown>;
    for (const key of Object.keys(plain)) expect([res.name, key, view.get(key)]).toEqual([res.name, key, plain[key]]);
    view.set({ [typed[0].name]: null });
    expect(view.get(typed[0].name)).toBeNull();
    checked++;
  }
  expect(checked).toBeGreaterThan(20);
});
