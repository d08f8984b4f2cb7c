/**
 * Named API tokens (docs/API.md "API tokens"): an organisation holds several, each with a name,
 * a permission subset (read-only and/or chosen resources), an expiry, its last use, a rate
 * limit, and a revocation. Stored as a sha256 hash and a masked hint; the clear token exists
 * only in the create call's answer. The organisation's single token (token-store.ts) keeps
 * working beside them.
 *
 * Rate limits are fixed one-minute windows counted in `open_api_rate` with conditional
 * UPDATEs, so several API instances on one database count into the same row (limits above
 * EXACT_LIMIT a minute in batches, see `limit`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { DataTypes, Op, UniqueConstraintError, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { resourceApiPath, type Metadata } from '@rti/metadata';
import { ApiError, ErrorCode, callPermission, type CallDef, type CallerScope } from '@rti/server/plugin-api';

export const NAMED_TOKEN_TABLE = 'open_api_token';
export const RATE_TABLE = 'open_api_rate';
/** named tokens start so; the organisation token starts with rti_ */
export const NAMED_PREFIX = 'rtk_';
export const WINDOW_MS = 60_000;
/** requests per minute of a token that names none (and of the organisation token): OPEN_API_RATE_PER_MINUTE */
export const defaultRate = (): number => {
  const n = Number(process.env.OPEN_API_RATE_PER_MINUTE);
  return Number.isInteger(n) && n > 0 ? n : 600;
};
const TOUCH_EVERY_MS = 60_000;
/** limits up to this many a minute are counted exactly in the database on every request */
export const EXACT_LIMIT = 120;
/** higher limits: this instance's counts go to the shared row this often */
const SYNC_MS = 200;

export const namedTokenColumns = {
  id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
  orgId: { type: DataTypes.INTEGER, allowNull: false, field: 'org_id' },
  name: { type: DataTypes.STRING(100), allowNull: false },
  tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true, field: 'token_hash' },
  hint: { type: DataTypes.STRING(32), allowNull: false },
  readOnly: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false, field: 'read_only' },
  /** JSON list of resource names; null = every resource */
  resources: { type: DataTypes.TEXT, allowNull: true },
  ratePerMinute: { type: DataTypes.INTEGER, allowNull: false, field: 'rate_per_minute' },
  expiresAt: { type: DataTypes.DATE, allowNull: true, field: 'expires_at' },
  revokedAt: { type: DataTypes.DATE, allowNull: true, field: 'revoked_at' },
  lastUsedAt: { type: DataTypes.DATE, allowNull: true, field: 'last_used_at' },
  createdBy: { type: DataTypes.INTEGER, allowNull: true, field: 'created_by' },
  createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
  updatedAt: { type: DataTypes.DATE, allowNull: false, field: 'updated_at' },
};

export const rateColumns = {
  key: { type: DataTypes.STRING(64), primaryKey: true },
  windowStart: { type: DataTypes.BIGINT, allowNull: false, field: 'window_start' },
  hits: { type: DataTypes.INTEGER, allowNull: false },
};

interface NamedRow {
  id: number;
  orgId: number;
  name: string;
  tokenHash: string;
  hint: string;
  readOnly: boolean;
  resources: string | null;
  ratePerMinute: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdBy: number | null;
  createdAt: Date;
}

export interface NamedTokenInfo {
  id: number;
  name: string;
  /** masked */
  hint: string;
  readOnly: boolean;
  /** null = every resource */
  resources: string[] | null;
  ratePerMinute: number;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  status: 'active' | 'expired' | 'revoked';
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

type M<R extends object> = ModelStatic<Model<R, Partial<R>>>;
function models(sequelize: Sequelize) {
  const token = (sequelize.models.OpenApiToken ??
    sequelize.define('OpenApiToken', namedTokenColumns, {
      tableName: NAMED_TOKEN_TABLE,
      freezeTableName: true,
      timestamps: true,
      createdAt: 'createdAt',
      updatedAt: 'updatedAt',
    })) as M<NamedRow>;
  const rate = (sequelize.models.OpenApiRate ??
    sequelize.define('OpenApiRate', rateColumns, { tableName: RATE_TABLE, freezeTableName: true, timestamps: false })) as M<{
    key: string;
    windowStart: number;
    hits: number;
  }>;
  return { token, rate };
}

function info(r: NamedRow, now = Date.now()): NamedTokenInfo {
  const status = r.revokedAt ? 'revoked' : r.expiresAt && new Date(r.expiresAt).getTime() <= now ? 'expired' : 'active';
  return {
    id: r.id,
    name: r.name,
    hint: r.hint,
    readOnly: Boolean(r.readOnly),
    resources: r.resources ? (JSON.parse(r.resources) as string[]) : null,
    ratePerMinute: r.ratePerMinute,
    expiresAt: iso(r.expiresAt),
    revokedAt: iso(r.revokedAt),
    lastUsedAt: iso(r.lastUsedAt),
    createdAt: iso(r.createdAt)!,
    status,
  };
}

/** Which permission codes a token limited to some resources and/or reading may use (from the registered calls). */
export class ScopeIndex {
  private index: Map<string, Array<{ resource: string; read: boolean }>> | null = null;
  constructor(
    private readonly calls: () => readonly CallDef[],
    private readonly metadata: Metadata,
  ) {}

  private build() {
    const index = new Map<string, Array<{ resource: string; read: boolean }>>();
    for (const call of this.calls()) {
      const res = call.resource ? this.metadata.resources[call.resource] : undefined;
      const code = callPermission(call);
      if (!res || !code) continue;
      const reads = new Set(['list', 'base', 'all', 'export'].map((k) => resourceApiPath(res, k)));
      const list = index.get(code) ?? [];
      list.push({ resource: res.name, read: reads.has(call.path) });
      index.set(code, list);
    }
    return index;
  }

  scope(label: string, readOnly: boolean, resources: string[] | null): CallerScope {
    const only = resources ? new Set(resources) : null;
    return {
      label,
      allows: (code) => {
        if (!readOnly && !only) return true;
        const entries = (this.index ??= this.build()).get(code);
        return Boolean(entries?.some((e) => (!only || only.has(e.resource)) && (e.read || !readOnly)));
      },
    };
  }
}

export interface IssueInput {
  name: string;
  readOnly?: boolean;
  resources?: string[] | null;
  ratePerMinute?: number;
  expiresAt?: Date | null;
}

export class NamedTokenStore {
  private readonly m: ReturnType<typeof models>;
  private readonly touched = new Map<number, number>();
  private readonly counters = new Map<string, { windowStart: number; pending: number; known: number }>();
  private syncTimer: NodeJS.Timeout | null = null;
  constructor(private readonly sequelize: Sequelize) {
    this.m = models(sequelize);
  }

  async issue(orgId: number, userId: number | null, input: IssueInput): Promise<NamedTokenInfo & { token: string }> {
    const token = NAMED_PREFIX + randomBytes(32).toString('base64url');
    const hint = `${token.slice(0, 8)}…${token.slice(-4)}`;
    const row = await this.m.token.create({
      orgId,
      name: input.name,
      tokenHash: sha256(token),
      hint,
      readOnly: Boolean(input.readOnly),
      resources: input.resources ? JSON.stringify([...new Set(input.resources)].sort()) : null,
      ratePerMinute: input.ratePerMinute ?? defaultRate(),
      expiresAt: input.expiresAt ?? null,
      createdBy: userId,
    });
    return { ...info(row.get({ plain: true })), token };
  }

  async list(orgId: number): Promise<NamedTokenInfo[]> {
    const rows = await this.m.token.findAll({ where: { orgId }, order: [['id', 'DESC']], raw: true });
    return (rows as unknown as NamedRow[]).map((r) => info(r));
  }

  /** Revokes one of the organisation's tokens (another organisation's id: false, like a missing one). */
  async revoke(orgId: number, id: number): Promise<boolean> {
    const [n] = await this.m.token.update({ revokedAt: new Date() }, { where: { id, orgId, revokedAt: null } });
    if (n) return true;
    return (await this.m.token.count({ where: { id, orgId } })) > 0;
  }

  /** The live token row for a clear token (not revoked, not expired), or null. */
  async resolve(token: string, now = Date.now()): Promise<(NamedTokenInfo & { orgId: number }) | null> {
    if (!token.startsWith(NAMED_PREFIX) || token.length > 100) return null;
    const row = await this.m.token.findOne({ where: { tokenHash: sha256(token) }, raw: true });
    if (!row) return null;
    const r = row as unknown as NamedRow;
    const out = { ...info(r, now), orgId: r.orgId };
    if (out.status !== 'active') return null;
    if ((this.touched.get(r.id) ?? 0) + TOUCH_EVERY_MS < now) {
      this.touched.set(r.id, now);
      await this.m.token.update({ lastUsedAt: new Date(now) }, { where: { id: r.id } });
    }
    return out;
  }

  /**
   * Adds `n` requests of `key` to this minute's shared row and answers the minute's count.
   * Conditional UPDATEs: concurrent instances count into the same row.
   */
  async add(key: string, n: number, now = Date.now()): Promise<number> {
    const windowStart = now - (now % WINDOW_MS);
    const { rate } = this.m;
    for (let attempt = 0; attempt < 3; attempt++) {
      const [counted] = await rate.update({ hits: this.sequelize.literal(`hits + ${Math.trunc(n)}`) as unknown as number }, { where: { key, windowStart } });
      if (counted) return Number(((await rate.findByPk(key, { raw: true })) as unknown as { hits: number } | null)?.hits ?? 0);
      const [restarted] = await rate.update({ windowStart, hits: n }, { where: { key, windowStart: { [Op.lt]: windowStart } } });
      if (restarted) return n;
      try {
        await rate.create({ key, windowStart, hits: n });
        return n;
      } catch (err) {
        if (!(err instanceof UniqueConstraintError)) throw err;
      }
    }
    return n;
  }

  /**
   * Takes one request of `key` under `limit` a minute, or throws the 429 envelope. Limits up to
   * EXACT_LIMIT are counted in the shared row on every request (exact across instances); higher
   * ones are counted here and added to the shared row every SYNC_MS, the refusal judged on the
   * shared count last read plus this instance's since — instances together may overshoot by
   * what arrives within SYNC_MS, and a request costs no database write.
   */
  async limit(key: string, limit: number, now = Date.now()): Promise<void> {
    const windowStart = now - (now % WINDOW_MS);
    const refuse = () => {
      const seconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
      return new ApiError(ErrorCode.tooManyAttempts, 'open-api.token.rateLimited', { limit, seconds }, 429);
    };
    if (limit <= EXACT_LIMIT) {
      if ((await this.add(key, 1, now)) > limit) throw refuse();
      return;
    }
    let c = this.counters.get(key);
    if (!c || c.windowStart !== windowStart) this.counters.set(key, (c = { windowStart, pending: 0, known: 0 }));
    if (c.known + c.pending >= limit) throw refuse();
    c.pending++;
    this.syncTimer ??= setTimeout(() => void this.sync(), SYNC_MS);
    this.syncTimer.unref?.();
  }

  /** adds this instance's pending counts to the shared rows and reads the minute's totals back */
  async sync(): Promise<void> {
    this.syncTimer = null;
    for (const [key, c] of this.counters) {
      if (!c.pending) {
        if (c.windowStart + WINDOW_MS < Date.now()) this.counters.delete(key);
        continue;
      }
      const n = c.pending;
      c.pending = 0;
      try {
        const total = await this.add(key, n, c.windowStart);
        c.known = Math.max(c.known, total);
      } catch {
        c.pending += n;
      }
    }
  }

  async stop(): Promise<void> {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    await this.sync().catch(() => undefined);
  }

  /** windows long gone */
  sweep(now = Date.now()): Promise<number> {
    return this.m.rate.destroy({ where: { windowStart: { [Op.lt]: now - 10 * WINDOW_MS } } });
  }
}
