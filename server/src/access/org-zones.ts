/**
 * One time zone per organisation (its `timeZone` field; empty = the server's TIME_ZONE): where
 * reports, snapshots, schedules and document numbers cut their days, so "yesterday" is the same
 * day in a page, an export and a mail. Read through a short cache: the instance that saves a
 * zone forgets it at once, the others within TTL_MS (the row in the database is the truth, so
 * any number of instances agree after that).
 */
import type { Database } from '../db/database';
import { isZone } from '../reports/time';

const TTL_MS = 30_000;
const CACHED = 10_000;

export class OrgZones {
  private readonly cache = new Map<number, { zone: string; until: number }>();

  constructor(
    private readonly db: Database,
    /** the server's zone (config.timeZone) for organisations that name none */
    readonly fallback: string,
    private readonly ttlMs = TTL_MS,
  ) {}

  /** the organisation's zone; the server's for none, an unknown organisation or a zone this runtime does not know */
  async of(orgId: number | null | undefined, now = Date.now()): Promise<string> {
    if (orgId === null || orgId === undefined) return this.fallback;
    const hit = this.cache.get(orgId);
    if (hit && hit.until > now) return hit.zone;
    const model = this.db.models.organization;
    const row = model?.getAttributes().timeZone
      ? ((await model.findByPk(orgId, { attributes: ['timeZone'], raw: true })) as { timeZone?: unknown } | null)
      : null;
    // a stored name this runtime knows (an offset number is no organisation's zone)
    const zone = typeof row?.timeZone === 'string' && isZone(row.timeZone) ? row.timeZone : this.fallback;
    if (this.cache.size >= CACHED) this.cache.clear();
    this.cache.set(orgId, { zone, until: now + this.ttlMs });
    return zone;
  }

  /** after a write to the organisation (this instance answers the new zone at once) */
  forget(orgId?: number): void {
    if (orgId === undefined) this.cache.clear();
    else this.cache.delete(orgId);
  }
}
