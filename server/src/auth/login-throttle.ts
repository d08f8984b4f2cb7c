/**
 * Slows down password guessing without handing anyone a way to lock another user out
 * (docs/ACCESS.md "Failed logins"). Three counters, each with its own bound:
 *   - user name AND client address together: the fast bound (a few tries, then a growing
 *     back-off) — an attacker blocks only itself, never the user at another address;
 *   - client address across user names (password spraying from one place);
 *   - user name across addresses: a slower, higher bound that one address cannot reach
 *     alone under its own back-off, so it only trips on a distributed attack.
 * After `maxFailures` failures within `windowMs` every further attempt under that counter is
 * refused until a back-off has passed; it doubles with each further failure (capped). State
 * lives in the database, so restarting the server (or adding instances) does not reset it.
 */
import type { AccessTables } from '../access/tables';

export interface ThrottleLimit {
  maxFailures: number;
  windowMs: number;
  baseBlockMs: number;
  maxBlockMs: number;
}

export type ThrottleKind = 'pair' | 'address' | 'user';
export type ThrottleOptions = Record<ThrottleKind, ThrottleLimit>;

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

export const DEFAULT_THROTTLE: ThrottleOptions = {
  // one address, one user name: 5 tries, then 30 s, 1 min, 2 min … up to an hour. Within an
  // hour that allows about a dozen failures, far below the user name's bound.
  pair: { maxFailures: 5, windowMs: HOUR, baseBlockMs: 30 * 1000, maxBlockMs: HOUR },
  address: { maxFailures: 20, windowMs: HOUR, baseBlockMs: MINUTE, maxBlockMs: HOUR },
  user: { maxFailures: 50, windowMs: HOUR, baseBlockMs: 5 * MINUTE, maxBlockMs: HOUR },
};

export interface ThrottleKey {
  key: string;
  kind: ThrottleKind;
}

const userPart = (username: string) => username.trim().toLowerCase();

/** The counters one attempt touches; without an address only the user name's own. */
export function throttleKeys(username: string, ip: string | undefined): ThrottleKey[] {
  const user = userPart(username);
  const keys: ThrottleKey[] = [{ key: `user:${user}`.slice(0, 191), kind: 'user' }];
  if (ip) {
    keys.push({ key: `pair:${ip}|${user}`.slice(0, 191), kind: 'pair' });
    keys.push({ key: `ip:${ip}`.slice(0, 191), kind: 'address' });
  }
  return keys;
}

export class LoginThrottle {
  constructor(
    private readonly tables: AccessTables,
    private readonly opts: ThrottleOptions = DEFAULT_THROTTLE,
  ) {}

  /** Seconds the caller must still wait, or 0 when an attempt is allowed. */
  async retryAfter(keys: ThrottleKey[]): Promise<number> {
    const rows = await this.tables.throttle.findAll({ where: { key: keys.map((k) => k.key) } });
    const now = Date.now();
    let wait = 0;
    for (const r of rows) {
      const until = r.get('blockedUntil') as Date | null;
      if (until && new Date(until).getTime() > now) wait = Math.max(wait, new Date(until).getTime() - now);
    }
    return Math.ceil(wait / 1000);
  }

  async fail(keys: ThrottleKey[]): Promise<void> {
    const now = new Date();
    for (const { key, kind } of keys) {
      const limit = this.opts[kind];
      const row = await this.tables.throttle.findByPk(key);
      const fresh = !row || now.getTime() - new Date(row.get('windowStart') as Date).getTime() > limit.windowMs;
      const failures = fresh ? 1 : (row!.get('failures') as number) + 1;
      const over = failures - limit.maxFailures;
      const blockedUntil = over >= 0 ? new Date(now.getTime() + Math.min(limit.baseBlockMs * 2 ** Math.min(over, 20), limit.maxBlockMs)) : null;
      const values = { key, failures, windowStart: fresh ? now : (row!.get('windowStart') as Date), blockedUntil };
      await this.tables.throttle.upsert(values);
    }
  }

  /**
   * A successful login clears its own user-and-address counter. The address and user-name
   * counters keep their history: a success in between must not reset a spraying or
   * distributed attack.
   */
  async succeed(username: string, ip: string | undefined): Promise<void> {
    const pair = throttleKeys(username, ip).filter((k) => k.kind === 'pair');
    if (pair.length) await this.tables.throttle.destroy({ where: { key: pair.map((k) => k.key) } });
  }
}
