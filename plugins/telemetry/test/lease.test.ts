/**
 * The telemetry writer's lease (issue 22, cluster.ts): one holder at a time; a holder that
 * stops gives it up at once; one that dies (stops renewing) loses it once it has run out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataTypes, Sequelize } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_TABLE, leaseMigration, startLease, type Lease } from '../server/cluster';

let dir: string;
let sequelize: Sequelize;
const leases: Lease[] = [];
const lease = (holder: string, ttlMs = 600) => {
  const l = startLease({ sequelize, name: 'state', holder, ttlMs, log: () => undefined });
  leases.push(l);
  return l;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-lease-'));
  sequelize = new Sequelize({ dialect: 'sqlite', storage: path.join(dir, 'db.sqlite'), logging: false });
  await leaseMigration.up({ sequelize, queryInterface: sequelize.getQueryInterface(), DataTypes });
});
afterAll(async () => {
  for (const l of leases) await l.stop();
  await sequelize.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('writer lease', () => {
  it('one holder at a time; a stop hands it over at the next attempt', async () => {
    const a = lease('a');
    expect(await a.tick()).toBe(true);
    const b = lease('b');
    expect(await b.tick()).toBe(false);
    await sleep(300);
    expect([a.held(), b.held()]).toEqual([true, false]);
    await a.stop();
    expect(await b.tick()).toBe(true);
    expect(a.held()).toBe(false);
    await b.stop();
  });

  it('a holder that died (no renewal) loses it once its lifetime has run out', async () => {
    // what a killed instance leaves: its row, valid for a little longer
    await sequelize.getQueryInterface().bulkUpdate(LEASE_TABLE, { holder: 'killed', expires_at: Date.now() + 500 }, { name: 'state' });
    const c = lease('c');
    expect(await c.tick()).toBe(false);
    const started = Date.now();
    while (!(await c.tick()) && Date.now() - started < 3000) await sleep(50);
    expect(c.held()).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });
});
