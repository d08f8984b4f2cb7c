/**
 * The public ship-order page (SPEC §7 Info `/info/ship-order`): what a driver or a receiver
 * sees after scanning the code on a delivery note — order, status, lines, containers — without
 * signing in. Access is by an unguessable token of that one order (192 random bits, stored
 * with its organisation and order in the plugin's own table), never by an id: a wrong or
 * revoked token and another organisation's order answer the same "not found", and the page
 * reads through a system context of the token's organisation only, so nothing else is reachable.
 */
import { randomBytes } from 'node:crypto';
import { Enums } from '@rti/metadata';
import { ApiError, ErrorCode, invalid, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';

export const INFO_TABLE = 'shipping_info_token';
const TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;
/** lines the public page shows at most (a 5,000-carrier order is summarised by container) */
export const INFO_MAX_LINES = 500;
/** public lookups per client address and minute */
export const INFO_RATE = 30;
const WINDOW_MS = 60_000;

export const infoColumns = {
  token: { type: DataTypes.STRING(32), primaryKey: true, allowNull: false },
  orgId: { type: DataTypes.INTEGER, allowNull: false },
  shipOrderId: { type: DataTypes.INTEGER, allowNull: false },
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

interface TokenRow {
  token: string;
  orgId: number;
  shipOrderId: number;
}

function model(sequelize: Sequelize): ModelStatic<Model<TokenRow, Partial<TokenRow>>> {
  return (sequelize.models.ShippingInfoToken ??
    sequelize.define('ShippingInfoToken', infoColumns, { tableName: INFO_TABLE, freezeTableName: true, timestamps: true, indexes: [{ unique: true, fields: ['orgId', 'shipOrderId'] }] })) as ModelStatic<Model<TokenRow, Partial<TokenRow>>>;
}

/** The page's path for a token (relative to the console's origin). */
export const infoPath = (token: string) => `/info/ship-order?token=${token}`;

export class InfoTokens {
  constructor(private readonly sequelize: Sequelize) {}

  /** The order's token, made on first use; the caller must already have read the order in scope. */
  async tokenFor(orgId: number, shipOrderId: number): Promise<string> {
    const m = model(this.sequelize);
    const found = await m.findOne({ where: { orgId, shipOrderId } });
    if (found) return found.get('token') as string;
    try {
      await m.create({ token: randomBytes(24).toString('base64url'), orgId, shipOrderId });
    } catch (err) {
      // a concurrent first print made it (unique org + order): use theirs; anything else fails
      const theirs = await m.findOne({ where: { orgId, shipOrderId } });
      if (!theirs) throw err;
      return theirs.get('token') as string;
    }
    return (await m.findOne({ where: { orgId, shipOrderId } }))!.get('token') as string;
  }

  async resolve(token: string): Promise<TokenRow | null> {
    if (!TOKEN_RE.test(token)) return null;
    const row = await model(this.sequelize).findByPk(token);
    return row ? (row.get({ plain: true }) as TokenRow) : null;
  }

  /** A new token for the order: every printed code of it stops working. */
  async renew(orgId: number, shipOrderId: number): Promise<string> {
    await model(this.sequelize).destroy({ where: { orgId, shipOrderId } });
    return this.tokenFor(orgId, shipOrderId);
  }
}

/** Fixed-window counter per client address (the public call has no session to throttle). */
class Limiter {
  private readonly hits = new Map<string, { start: number; n: number }>();
  take(key: string, now = Date.now()): number {
    const h = this.hits.get(key);
    if (!h || now - h.start >= WINDOW_MS) {
      if (this.hits.size > 10_000) for (const [k, v] of this.hits) if (now - v.start >= WINDOW_MS) this.hits.delete(k);
      this.hits.set(key, { start: now, n: 1 });
      return 0;
    }
    h.n += 1;
    return h.n > INFO_RATE ? Math.ceil((h.start + WINDOW_MS - now) / 1000) : 0;
  }
}

type Row = Record<string, any>;

/** What the public page shows of one order, read in the token's organisation. */
export async function publicOrder(ctx: PluginServerContext, call: RequestContext, shipOrderId: number): Promise<Row> {
  const orders = ctx.repo('ship-order', call);
  const [o] = await orders.serialize([await orders.find(shipOrderId)]);
  const lines = ctx.repo('ship-order-detail', call);
  const byContainer = new Map<string, { containerNo: string | null; quantity: number; received: number }>();
  const shown: Row[] = [];
  let total = 0;
  const Line = Enums.shipOrderLineStatus;
  for await (const chunk of lines.chunks({ shipOrderId }, 1000)) {
    for (const l of chunk) {
      total += 1;
      const key = String(l.containerNo ?? '');
      const c = byContainer.get(key) ?? { containerNo: (l.containerNo as string | null) ?? null, quantity: 0, received: 0 };
      if (Number(l.status) !== Line.extra) c.quantity += 1;
      if (Number(l.status) === Line.received || Number(l.status) === Line.extra) c.received += 1;
      byContainer.set(key, c);
      if (shown.length < INFO_MAX_LINES)
        shown.push({
          carrierSn: l.carrierSn,
          carrierCode: l.carrierCodeIdLabel ?? null,
          containerNo: l.containerNo ?? null,
          deliveryNo: l.deliveryNo ?? null,
          status: l.status,
          receiptTime: l.receiptTime ?? null,
        });
    }
  }
  // only what a driver or receiver needs: no ids, users or organisation internals
  return {
    order: {
      orderNo: o.orderNo,
      type: o.type,
      status: o.status,
      shipperWarehouse: o.shipperWarehouseIdLabel ?? null,
      receiverWarehouse: o.receiverWarehouseIdLabel ?? null,
      transportType: o.transportType ?? null,
      conveyanceNo: o.conveyanceNo ?? null,
      etd: o.etd ?? null,
      eta: o.eta ?? null,
      atd: o.atd ?? null,
      ata: o.ata ?? null,
      tor: o.tor ?? null,
      totalAmount: o.totalAmount ?? 0,
      receivedAmount: o.receivedAmount ?? 0,
      missingAmount: o.missingAmount ?? 0,
      extraAmount: o.extraAmount ?? 0,
    },
    containers: [...byContainer.values()].sort((a, b) => String(a.containerNo ?? '').localeCompare(String(b.containerNo ?? ''))),
    lines: shown,
    lineTotal: total,
    truncated: total > shown.length,
  };
}

export function registerInfo(ctx: PluginServerContext): InfoTokens {
  ctx.addMigration({
    name: '2026-11-24-shipping-info-token',
    async up({ queryInterface }) {
      await queryInterface.createTable(INFO_TABLE, infoColumns);
      await queryInterface.addIndex(INFO_TABLE, ['orgId', 'shipOrderId'], { unique: true, name: `${INFO_TABLE}_org_order` });
    },
    async down({ queryInterface }) {
      await queryInterface.dropTable(INFO_TABLE);
    },
  });
  const tokens = new InfoTokens(ctx.db);
  const limiter = new Limiter();
  const notFound = () => new ApiError(ErrorCode.notFound, 'server.errors.10002');

  /** public: { token } → the order's page; the same "not found" for every token that is not one */
  ctx.addCall({
    path: '/info/ship-order',
    public: true,
    async handler({ body, ctx: call }) {
      const wait = limiter.take(call.ip ?? 'unknown');
      if (wait > 0) throw new ApiError(ErrorCode.tooManyAttempts, 'shipping.info.throttled', { seconds: wait }, 429);
      const token = body.token;
      if (typeof token !== 'string' || token.length > 64) throw invalid('type', 'token', { expected: 'string' });
      const found = await tokens.resolve(token);
      if (!found) throw notFound();
      const scoped = ctx.systemContext(found.orgId, call.language);
      try {
        return await publicOrder(ctx, scoped, found.shipOrderId);
      } catch (err) {
        // the order was deleted since it was printed
        if (err instanceof ApiError && err.code === ErrorCode.notFound) throw notFound();
        throw err;
      }
    },
  });

  /** { id, renew? } → the order's public token and page path (renew: old codes stop working) */
  ctx.addCall({
    path: '/ship-order/info/link',
    input: { id: { type: 'ref', required: true }, renew: { type: 'bool', default: false } },
    async handler({ input, ctx: call }) {
      const { id } = input;
      // read in the caller's scope first: no token for an order the caller cannot see
      await ctx.repo('ship-order', call).find(id);
      const token = input.renew ? await tokens.renew(call.orgId!, id) : await tokens.tokenFor(call.orgId!, id);
      return { token, path: infoPath(token) };
    },
  });
  return tokens;
}
