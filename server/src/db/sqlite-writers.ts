/**
 * One write transaction at a time per process on SQLite. SQLite has a single writer anyway;
 * without this queue, transactions waiting for the lock each hold a libuv worker thread in
 * SQLite's busy handler, and once the (4) workers are all waiting, the transaction that holds
 * the lock cannot run its next statement: a deadlock until the busy timeout. Queued in
 * JavaScript instead, waiting costs nothing. Savepoints (a `transaction` option) and
 * unmanaged transactions pass straight through.
 */
import type { Sequelize, Transaction, TransactionOptions } from 'sequelize';
import { BUSY_TIMEOUT_MS } from './sqlite-driver';

type Managed<T> = (t: Transaction) => PromiseLike<T>;

export function queueSqliteWriters(sequelize: Sequelize, waitMs = BUSY_TIMEOUT_MS): void {
  const original = sequelize.transaction.bind(sequelize) as (opts?: TransactionOptions, fn?: Managed<unknown>) => Promise<unknown>;
  let tail: Promise<unknown> = Promise.resolve();

  const queued = <T>(opts: TransactionOptions | undefined, fn: Managed<T>): Promise<T> => {
    let cancelled = false;
    const turn = tail.then(() => (cancelled ? undefined : original(opts ?? {}, fn as Managed<unknown>)));
    tail = turn.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    // A transaction started inside another (without passing it) would wait for itself.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cancelled = true;
        reject(new Error(`SQLite write queue: waited more than ${waitMs} ms for the write lock`));
      }, waitMs);
      timer.unref();
    });
    return Promise.race([turn as Promise<T>, timeout]).finally(() => clearTimeout(timer));
  };

  (sequelize as unknown as { transaction: unknown }).transaction = (a?: TransactionOptions | Managed<unknown>, b?: Managed<unknown>) => {
    const opts = typeof a === 'function' ? undefined : a;
    const fn = typeof a === 'function' ? a : b;
    if (!fn || opts?.transaction) return original(opts, fn);
    return queued(opts, fn);
  };
}
