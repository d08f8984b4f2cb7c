/**
 * One write transaction at a time per process on SQLite. SQLite has a single writer anyway;
 * without this queue, transactions waiting for the lock each hold a libuv worker thread in
 * SQLite's busy handler, and once the (4) workers are all waiting, the transaction that holds
 * the lock cannot run its next statement: a deadlock until the busy timeout. Queued in
 * JavaScript instead, waiting costs nothing. Savepoints (a `transaction` option) and
 * unmanaged transactions pass straight through.
 *
 * A write outside any transaction (a job's lease row, `Model.update` without one) takes its turn
 * too. Sent at any time on Sequelize's one shared connection, it would wait for the lock in the
 * busy handler and hold that connection meanwhile, so every read without a transaction — those
 * of the transaction holding the lock included — stalled behind it until the busy timeout.
 */
import type { QueryOptions, Sequelize, Transaction, TransactionOptions } from 'sequelize';
import { BUSY_TIMEOUT_MS } from './sqlite-driver';

type Managed<T> = (t: Transaction) => PromiseLike<T>;

/** statements that take SQLite's write lock (DDL runs at migration, before anything else) */
const WRITE = /^\s*(insert|update|delete|replace)\b/i;

export function queueSqliteWriters(sequelize: Sequelize, waitMs = BUSY_TIMEOUT_MS): void {
  const original = sequelize.transaction.bind(sequelize) as (opts?: TransactionOptions, fn?: Managed<unknown>) => Promise<unknown>;
  let tail: Promise<unknown> = Promise.resolve();
  /** when a turn last began or ended: a queue that moves is a backlog, one that does not is stuck */
  let movedAt = Date.now();

  /** runs `run` on its turn; the turn is over when `run` calls `over` or settles, whichever comes first */
  const enqueue = <T>(run: (over: () => void) => Promise<T>): Promise<T> => {
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    let over!: () => void;
    const ended = new Promise<void>((resolve) => {
      over = () => {
        movedAt = Date.now();
        resolve();
      };
    });
    const ahead = tail;
    tail = ended;
    const turn = ahead.then((): Promise<T> | undefined => {
      if (cancelled) {
        over();
        return undefined;
      }
      clearTimeout(timer);
      movedAt = Date.now();
      return run(over).finally(over);
    });
    // A transaction started inside another (without passing it) would wait for itself: refused
    // once the queue has not moved for waitMs, however long the backlog ahead of it.
    const timeout = new Promise<never>((_, reject) => {
      const check = () => {
        const still = Date.now() - movedAt;
        if (still < waitMs) {
          timer = setTimeout(check, waitMs - still);
          timer.unref();
          return;
        }
        cancelled = true;
        reject(new Error(`SQLite write queue: waited more than ${waitMs} ms for the write lock`));
      };
      timer = setTimeout(check, waitMs);
      timer.unref();
    });
    return Promise.race([turn as Promise<T>, timeout]).finally(() => clearTimeout(timer));
  };

  (sequelize as unknown as { transaction: unknown }).transaction = (a?: TransactionOptions | Managed<unknown>, b?: Managed<unknown>) => {
    const opts = typeof a === 'function' ? undefined : a;
    const fn = typeof a === 'function' ? a : b;
    if (!fn || opts?.transaction) return original(opts, fn);
    // The turn ends at the commit, before the transaction's afterCommit hooks (Sequelize awaits
    // them inside commit): a hook may write, and that write takes the next turn.
    return enqueue((over) =>
      original(opts ?? {}, (t) => {
        t.afterCommit(over);
        return fn(t);
      }),
    );
  };

  // On the shared connection, but only on its turn: nobody else holds the lock then.
  const query = sequelize.query.bind(sequelize) as (sql: unknown, options?: QueryOptions) => Promise<unknown>;
  (sequelize as unknown as { query: unknown }).query = (sql: string | { query: string }, options?: QueryOptions) => {
    const text = typeof sql === 'string' ? sql : sql?.query;
    if (options?.transaction || typeof text !== 'string' || !WRITE.test(text)) return query(sql, options);
    return enqueue(() => query(sql, options));
  };
}
