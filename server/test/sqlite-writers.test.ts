/**
 * SQLite's writer queue (src/db/sqlite-writers.ts): a write outside any transaction waits for
 * its turn in the queue, not in SQLite's busy handler on the shared connection, so reads go on
 * while a transaction holds the lock. The queue refuses a waiter only when it stands still (a
 * transaction started inside another without passing it), never for a long transaction or a
 * backlog that moves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataTypes, Sequelize } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDriver } from '../src/db/sqlite-driver';
import { queueSqliteWriters } from '../src/db/sqlite-writers';

const WAIT_MS = 1500;
let dir: string;
let sequelize: Sequelize;

const leaseN = async () => ((await sequelize.models.lease.findOne({ raw: true })) as unknown as { n: number }).n;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const timed = async <T>(p: Promise<T>): Promise<{ value: T; ms: number }> => {
  const t0 = Date.now();
  const value = await p;
  return { value, ms: Date.now() - t0 };
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-sqlite-writers-'));
  sequelize = new Sequelize({
    dialect: 'sqlite',
    dialectModule: sqliteDriver,
    storage: path.join(dir, 'db.sqlite'),
    logging: false,
    transactionType: 'IMMEDIATE' as never,
  });
  queueSqliteWriters(sequelize, WAIT_MS);
  await sequelize.query('PRAGMA journal_mode = WAL');
  sequelize.define('lease', { name: { type: DataTypes.STRING, unique: true }, n: DataTypes.INTEGER }, { tableName: 'lease', timestamps: false });
  await sequelize.sync();
  await sequelize.models.lease.create({ name: 'job', n: 0 });
});
afterAll(async () => {
  await sequelize?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite writer queue', () => {
  it('queues a write outside a transaction: reads without one go on meanwhile, the write lands after the holder', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holderRead = -1;
    const holder = sequelize.transaction(async (transaction) => {
      await sequelize.models.lease.update({ n: 1 }, { where: { name: 'job' }, transaction });
      await held;
      // the holder's own read without its transaction (a plugin's lookup): it must not wait
      // for the write queued behind the holder
      holderRead = (await sequelize.models.lease.count()) as number;
      await sequelize.models.lease.update({ n: 2 }, { where: { name: 'job' }, transaction });
    });
    await pause(50);
    // a job's lease claim: no transaction of its own
    const claim = timed(sequelize.models.lease.update({ n: 10 }, { where: { name: 'job' } }));
    await pause(50);
    const read = await timed(sequelize.query('SELECT n FROM lease', { plain: true }));
    expect(read.value).toEqual({ n: 0 }); // the holder's writes are not committed yet
    expect(read.ms).toBeLessThan(WAIT_MS / 3);
    release();
    await holder;
    expect(holderRead).toBe(1);
    const landed = await claim;
    expect(landed.value).toEqual([1]);
    expect(await leaseN()).toBe(10);
  });

  it('raw write statements without a transaction are queued too (any case, leading blanks); a raw read is not', async () => {
    const order: string[] = [];
    const holder = sequelize.transaction(async (transaction) => {
      await sequelize.query("UPDATE lease SET n = 20 WHERE name = 'job'", { transaction });
      await pause(200);
      order.push('holder');
    });
    await pause(20);
    const raw = sequelize.query("  update lease SET n = n + 1 WHERE name = 'job'").then(() => order.push('raw'));
    // a read answers before the holder ends (it would wait 200 ms if it were queued)
    const read = await timed(sequelize.query("  select n FROM lease WHERE name = 'job'", { plain: true }).then(() => order.push('read')));
    await Promise.all([holder, raw]);
    expect(order).toEqual(['read', 'holder', 'raw']);
    expect(read.ms).toBeLessThan(150);
    expect(await leaseN()).toBe(21);
  });

  it("a transaction's afterCommit hook may write without a transaction: the turn ended at the commit", async () => {
    const done = await timed(
      sequelize.transaction(async (transaction) => {
        await sequelize.models.lease.update({ n: 40 }, { where: { name: 'job' }, transaction });
        // Sequelize awaits the hook inside commit: had the turn lasted until then, this write would wait for itself
        transaction.afterCommit(async () => {
          await sequelize.models.lease.increment('n', { where: { name: 'job' } });
        });
      }),
    );
    expect(done.ms).toBeLessThan(WAIT_MS);
    expect(await leaseN()).toBe(41);
  });

  it('a transaction longer than the wait is not refused; one waiting longer is', async () => {
    const long = await timed(
      sequelize.transaction(async (transaction) => {
        await sequelize.models.lease.update({ n: 30 }, { where: { name: 'job' }, transaction });
        await pause(WAIT_MS + 300);
        return 'committed';
      }),
    );
    expect(long.value).toBe('committed');
    expect(long.ms).toBeGreaterThan(WAIT_MS);
    // a backlog longer than the wait: the queue moves, nobody is refused
    const backlog = await timed(
      Promise.all(Array.from({ length: 60 }, (_, i) => sequelize.models.lease.update({ n: 100 + i }, { where: { name: 'job' } }).then(() => pause(0)))),
    );
    const slow = await timed(
      Promise.all(
        Array.from({ length: 8 }, () =>
          sequelize.transaction(async (transaction) => {
            await sequelize.models.lease.increment('n', { where: { name: 'job' }, transaction });
            await pause(WAIT_MS / 4);
          }),
        ),
      ),
    );
    expect(slow.ms).toBeGreaterThan(WAIT_MS);
    expect(await leaseN()).toBe(159 + 8);
    expect(backlog.value).toHaveLength(60);
    // started inside another without passing it: it would wait for itself
    const nested = sequelize.transaction(async () => {
      await sequelize.models.lease.update({ n: 31 }, { where: { name: 'job' } });
    });
    await expect(nested).rejects.toThrow(/waited more than 1500 ms/);
  });
});
