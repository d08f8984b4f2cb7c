/**
 * The public one-record link (metadata `publicLink`): what a driver or a worker sees after
 * scanning the code printed on a document or fixed to a rack, without signing in.
 *
 * - Access is by an unguessable token of that one record (192 random bits) kept in
 *   `sys_public_link` with its organisation, resource and record — never by an id. A wrong,
 *   renewed or malformed token, a deleted record and another resource's token all answer the
 *   same "not found", and the page is read through a system context of the token's
 *   organisation only, so nothing else is reachable.
 * - The public call is throttled per client address in `sys_public_hit` (a fixed window in the
 *   database), so several instances behind a load balancer share one bound.
 * - What the page shows is the module's (its reader); the platform owns tokens, throttle and calls.
 */
import { randomBytes } from 'node:crypto';
import { resourceApiPrefix, type ResourceDef } from '@rti/metadata';
import { DataTypes, Op, UniqueConstraintError, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { registerMigration } from '../db/migrations';
import { ApiError, ErrorCode } from '../http/api-error';
import { invalid } from '../http/invalid';
import type { Request } from 'express';
import type { CallDef, RequestContext } from '../http/types';

export const PUBLIC_LINK_TABLE = 'sys_public_link';
export const PUBLIC_HIT_TABLE = 'sys_public_hit';
/** lookups per client address and minute unless the declaration says otherwise */
export const PUBLIC_RATE = 30;
const WINDOW_MS = 60_000;
const TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

interface LinkRow {
  token: string;
  orgId: number;
  resource: string;
  recordId: number;
}
interface HitRow {
  key: string;
  windowStart: number;
  hits: number;
}

const linkColumns = {
  token: { type: DataTypes.STRING(32), primaryKey: true, allowNull: false },
  orgId: { type: DataTypes.INTEGER, allowNull: false, field: 'org_id' },
  resource: { type: DataTypes.STRING(100), allowNull: false },
  recordId: { type: DataTypes.INTEGER, allowNull: false, field: 'record_id' },
};
const hitColumns = {
  key: { type: DataTypes.STRING(120), primaryKey: true, allowNull: false },
  windowStart: { type: DataTypes.BIGINT, allowNull: false, field: 'window_start' },
  hits: { type: DataTypes.INTEGER, allowNull: false },
};

registerMigration({
  name: '2026-11-27-public-link',
  async up({ queryInterface: qi }) {
    await qi.createTable(PUBLIC_LINK_TABLE, {
      token: linkColumns.token,
      org_id: { type: DataTypes.INTEGER, allowNull: false },
      resource: linkColumns.resource,
      record_id: { type: DataTypes.INTEGER, allowNull: false },
      created_at: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex(PUBLIC_LINK_TABLE, ['org_id', 'resource', 'record_id'], { unique: true, name: `${PUBLIC_LINK_TABLE}_record` });
    await qi.createTable(PUBLIC_HIT_TABLE, { key: hitColumns.key, window_start: { type: DataTypes.BIGINT, allowNull: false }, hits: hitColumns.hits });
  },
  async down({ queryInterface: qi }) {
    await qi.dropTable(PUBLIC_HIT_TABLE);
    await qi.dropTable(PUBLIC_LINK_TABLE);
  },
});

/** What a public page shows of one record, read with a system context of the token's organisation. */
export type PublicReader = (call: RequestContext, recordId: number) => Promise<unknown>;

export interface PublicLinkService {
  /** the module's page content for a resource declaring `publicLink` (once, from its plugin) */
  reader(resource: string, fn: PublicReader): void;
  /** the record's token and page path, made on first use; the caller must have read the record in scope */
  tokenFor(resource: string, call: RequestContext, recordId: number): Promise<{ token: string; path: string }>;
  /** the absolute address of a page path for a printed code: PUBLIC_URL, else the caller's origin */
  url(req: Request | undefined, path: string): string;
}

type Models = { link: ModelStatic<Model<LinkRow, LinkRow>>; hit: ModelStatic<Model<HitRow, HitRow>> };

function models(sequelize: Sequelize): Models {
  const link = (sequelize.models[PUBLIC_LINK_TABLE] ??
    sequelize.define(
      PUBLIC_LINK_TABLE,
      { ...linkColumns, createdAt: { type: DataTypes.DATE, field: 'created_at' } },
      { tableName: PUBLIC_LINK_TABLE, timestamps: true, updatedAt: false, createdAt: 'createdAt' },
    )) as Models['link'];
  const hit = (sequelize.models[PUBLIC_HIT_TABLE] ??
    sequelize.define(PUBLIC_HIT_TABLE, hitColumns, { tableName: PUBLIC_HIT_TABLE, timestamps: false })) as Models['hit'];
  return { link, hit };
}

/** The page's path for a token (relative to the console's origin). */
export const publicPath = (res: ResourceDef, token: string): string => `${res.publicLink!.page}?token=${token}`;

export class PublicLinks {
  private readonly m: Models;
  constructor(private readonly sequelize: Sequelize) {
    this.m = models(sequelize);
  }

  async tokenFor(orgId: number, resource: string, recordId: number): Promise<string> {
    const where = { orgId, resource, recordId };
    const found = await this.m.link.findOne({ where });
    if (found) return found.get('token') as string;
    try {
      await this.m.link.create({ token: randomBytes(24).toString('base64url'), ...where });
    } catch (err) {
      // a concurrent first use made it (unique organisation + resource + record): theirs is the one
      if (!(err instanceof UniqueConstraintError)) throw err;
    }
    return (await this.m.link.findOne({ where }))!.get('token') as string;
  }

  /** A new token: every code printed with the old one stops working. */
  async renew(orgId: number, resource: string, recordId: number): Promise<string> {
    await this.m.link.destroy({ where: { orgId, resource, recordId } });
    return this.tokenFor(orgId, resource, recordId);
  }

  async resolve(token: string, resource: string): Promise<LinkRow | null> {
    if (!TOKEN_RE.test(token)) return null;
    const row = await this.m.link.findByPk(token);
    return row && row.get('resource') === resource ? (row.get({ plain: true }) as LinkRow) : null;
  }

  /**
   * Takes one lookup of `key` in this minute: 0 while within `limit`, else the seconds until the
   * window ends. Conditional UPDATEs, so concurrent instances count into the same row.
   */
  async take(key: string, limit: number, now = Date.now()): Promise<number> {
    const windowStart = now - (now % WINDOW_MS);
    const wait = () => Math.ceil((windowStart + WINDOW_MS - now) / 1000);
    for (let attempt = 0; attempt < 2; attempt++) {
      const [counted] = await this.m.hit.update({ hits: this.sequelize.literal('hits + 1') as unknown as number }, { where: { key, windowStart } });
      if (counted) return Number((await this.m.hit.findByPk(key))?.get('hits') ?? 0) > limit ? wait() : 0;
      // a new window for this address: restart its old row, or make the first
      const [restarted] = await this.m.hit.update({ windowStart, hits: 1 }, { where: { key, windowStart: { [Op.lt]: windowStart } } });
      if (restarted) return 0;
      try {
        await this.m.hit.create({ key, windowStart, hits: 1 });
        return 0;
      } catch (err) {
        // another instance made it first: count into theirs
        if (!(err instanceof UniqueConstraintError)) throw err;
      }
    }
    return 0;
  }

  /** Rows of windows long gone (an address seen once keeps its row until then). */
  async sweep(now = Date.now()): Promise<number> {
    return this.m.hit.destroy({ where: { windowStart: { [Op.lt]: now - 10 * WINDOW_MS } } });
  }
}

export interface PublicLinkDeps {
  links: PublicLinks;
  resources: () => Record<string, ResourceDef>;
  systemContext: (orgId: number, language: RequestContext['language']) => RequestContext;
  /** reads the record in the caller's scope (refuses what the caller may not see) */
  readInScope: (resource: string, call: RequestContext, id: number) => Promise<unknown>;
  /** config.publicUrl */
  publicUrl: string;
}

/** The console origin a printed code points at: the configured one, else the caller's. */
export function publicBase(fixed: string, req: Request | undefined): string {
  const raw = fixed || (req?.get?.('origin') ?? (req?.get?.('host') ? `${req.protocol}://${req.get('host')}` : ''));
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
  } catch {
    // no usable origin: the path alone
  }
  return '';
}

/** The calls of every resource declaring `publicLink`, and the service plugins use. */
export function publicLinkCalls(deps: PublicLinkDeps): { calls: CallDef[]; service: PublicLinkService } {
  const readers = new Map<string, PublicReader>();
  const notFound = () => new ApiError(ErrorCode.notFound, 'server.errors.10002');
  const declared = (resource: string): ResourceDef => {
    const res = deps.resources()[resource];
    if (!res?.publicLink) throw new Error(`publicLink: resource "${resource}" declares no publicLink`);
    return res;
  };
  const calls: CallDef[] = [];
  for (const res of Object.values(deps.resources())) {
    if (!res.publicLink) continue;
    const limit = res.publicLink.rate ?? PUBLIC_RATE;
    calls.push({
      path: res.publicLink.page,
      public: true,
      resource: res.name,
      async handler({ body, ctx: call }) {
        const wait = await deps.links.take(`${res.name}|${call.ip ?? 'unknown'}`, limit);
        if (wait > 0) throw new ApiError(ErrorCode.tooManyAttempts, 'server.publicLink.throttled', { seconds: wait }, 429);
        const token = body.token;
        if (typeof token !== 'string' || token.length > 64) throw invalid('type', 'token', { expected: 'string' });
        const found = await deps.links.resolve(token, res.name);
        const read = readers.get(res.name);
        if (!found || !read) throw notFound();
        try {
          return await read(deps.systemContext(found.orgId, call.language), found.recordId);
        } catch (err) {
          // the record was deleted since its code was printed
          if (err instanceof ApiError && err.code === ErrorCode.notFound) throw notFound();
          throw err;
        }
      },
    });
    /** { id, renew? } → the record's token and page path (renew: old codes stop working) */
    calls.push({
      path: `${resourceApiPrefix(res)}/info/link`,
      resource: res.name,
      // declared like a plugin call's input: validated and refused by label before the handler
      input: { id: { type: 'ref', required: true }, renew: { type: 'bool', default: false } },
      async handler({ input, ctx: call }) {
        const { id, renew } = input as { id: number; renew: boolean };
        // read in the caller's scope first: no token for a record the caller cannot see
        await deps.readInScope(res.name, call, id);
        const token = renew ? await deps.links.renew(call.orgId!, res.name, id) : await deps.links.tokenFor(call.orgId!, res.name, id);
        return { token, path: publicPath(res, token) };
      },
    });
  }
  const service: PublicLinkService = {
    reader(resource, fn) {
      declared(resource);
      if (readers.has(resource)) throw new Error(`publicLink: resource "${resource}" has a reader already`);
      readers.set(resource, fn);
    },
    async tokenFor(resource, call, recordId) {
      const res = declared(resource);
      const token = await deps.links.tokenFor(call.orgId!, resource, recordId);
      return { token, path: publicPath(res, token) };
    },
    url: (req, path) => publicBase(deps.publicUrl, req) + path,
  };
  return { calls, service };
}
