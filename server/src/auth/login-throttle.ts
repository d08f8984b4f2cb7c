/**
 * Slows down password guessing, per user name and per client address. After `maxFailures`
 * failed logins within `windowMs` every further attempt is refused until a back-off window
 * has passed; the window doubles with each further failure (capped). State lives in the
 * database, so restarting the server (or adding instances) does not reset it.
 */
import type { AccessTables } from '../access/tables';

export interface ThrottleOptions {
  maxFailures: number;
  windowMs: number;
  baseBlockMs: number;
  maxBlockMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  maxFailures: 5,
  windowMs: 15 * 60 * 1000,
  baseBlockMs: 30 * 1000,
  maxBlockMs: 60 * 60 * 1000,
};

export const throttleKeys = (username: string, ip: string | undefined): string[] =>
  [`user:${username.trim().toLowerCase()}`.slice(0, 191), ip ? `ip:${ip}`.slice(0, 191) : ''].filter(Boolean);

export class LoginThrottle {
  constructor(
    private readonly tables: AccessTables,
    private readonly opts: ThrottleOptions = DEFAULT_THROTTLE,
  ) {}

  /** Seconds the caller must still wait, or 0 when an attempt is allowed. */
  async retryAfter(keys: string[]): Promise<number> {
    const rows = await this.tables.throttle.findAll({ where: { key: keys } });
    const now = Date.now();
    let wait = 0;
    for (const r of rows) {
      const until = r.get('blockedUntil') as Date | null;
      if (until && new Date(until).getTime() > now) wait = Math.max(wait, new Date(until).getTime() - now);
    }
    return Math.ceil(wait / 1000);
  }

  async fail(keys: string[]): Promise<void> {
    const now = new Date();
    for (const key of keys) {
      const row = await this.tables.throttle.findByPk(key);
      const fresh = !row || now.getTime() - new Date(row.get('windowStart') as Date).getTime() > this.opts.windowMs;
      const failures = fresh ? 1 : (row!.get('failures') as number) + 1;
      const over = failures - this.opts.maxFailures;
      const blockedUntil =
        over >= 0 ? new Date(now.getTime() + Math.min(this.opts.baseBlockMs * 2 ** Math.min(over, 20), this.opts.maxBlockMs)) : null;
      const values = { key, failures, windowStart: fresh ? now : (row!.get('windowStart') as Date), blockedUntil };
      await this.tables.throttle.upsert(values);
    }
  }

  /** A successful login clears the user name's counter (the address keeps its own history). */
  async succeed(username: string): Promise<void> {
    await this.tables.throttle.destroy({ where: { key: throttleKeys(username, undefined) } });
  }
}
