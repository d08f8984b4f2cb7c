/**
 * A transaction the database rolled back whole to break a lock cycle can simply run again.
 * InnoDB picks a deadlock victim (1213) when two writers meet on rows in opposite orders (two
 * documents adding lines that touch one carrier, an index gap), and gives up a lock wait
 * (1205); SQLite has one writer, so it never answers either. Every engine transaction that
 * writes on behalf of a call runs through here, so a client sees the translated answer of the
 * run that got through, never a raw database error.
 */
import type { Transaction } from 'sequelize';

const TRANSIENT = new Set([1213, 1205]);
/** runs of one transaction at most */
export const TRANSACTION_TRIES = 5;
const BACKOFF_MS = 10;

/** the driver's error number under Sequelize's wrapper (`parent`, `original`) */
export function isTransient(err: unknown): boolean {
  const e = err as { parent?: { errno?: number }; original?: { errno?: number }; errno?: number } | null;
  const errno = e?.parent?.errno ?? e?.original?.errno ?? e?.errno;
  return errno !== undefined && TRANSIENT.has(errno);
}

/**
 * Runs `attempt` again after a transient refusal, up to TRANSACTION_TRIES times with a growing,
 * jittered pause. `attempt` must open its own transaction each time (a nested one lives and
 * dies with its parent and is not retried here) and keep effects outside the database in
 * `transaction.afterCommit`, which only the committed run fires.
 */
export async function retryTransient<T>(attempt: () => Promise<T>, tries = TRANSACTION_TRIES): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= tries || !isTransient(err)) throw err;
      await new Promise((r) => setTimeout(r, BACKOFF_MS * i + Math.random() * 2 * BACKOFF_MS));
    }
  }
}

/** `sequelize.transaction(fn)` with transient refusals retried */
export function retryingTransaction<T>(
  sequelize: { transaction<R>(fn: (t: Transaction) => Promise<R>): Promise<R> },
  fn: (t: Transaction) => Promise<T>,
): Promise<T> {
  return retryTransient(() => sequelize.transaction(fn));
}
