/**
 * Organisation API tokens: at most one per organisation, stored as a sha256 hash plus a
 * masked hint. The clear token exists only in the answer of the create call.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { retryingTransaction } from '@rti/server/plugin-api';

export const TOKEN_TABLE = 'org_api_token';
/** Recognisable prefix: the guard's strategy ignores other tokens without a lookup. */
export const TOKEN_PREFIX = 'rti_';
/** last-used time is written at most this often per token (not on every call) */
const TOUCH_EVERY_MS = 60 * 1000;

export const tokenColumns = {
  orgId: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
  tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
  hint: { type: DataTypes.STRING(32), allowNull: false },
  createdBy: { type: DataTypes.INTEGER, allowNull: true },
  lastUsedAt: { type: DataTypes.DATE, allowNull: true },
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

export interface TokenRow {
  orgId: number;
  tokenHash: string;
  hint: string;
  createdBy: number | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  updatedAt?: Date;
}

export interface TokenInfo {
  orgId: number;
  /** masked token, e.g. rti_AbCd…wxyz */
  token: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function model(sequelize: Sequelize): ModelStatic<Model<TokenRow, Partial<TokenRow>>> {
  return (sequelize.models.OrgApiToken ??
    sequelize.define('OrgApiToken', tokenColumns, { tableName: TOKEN_TABLE, freezeTableName: true, timestamps: true })) as ModelStatic<
    Model<TokenRow, Partial<TokenRow>>
  >;
}

const info = (r: TokenRow): TokenInfo => ({
  orgId: r.orgId,
  token: r.hint,
  createdAt: new Date(r.createdAt).toISOString(),
  lastUsedAt: r.lastUsedAt ? new Date(r.lastUsedAt).toISOString() : null,
});

export class OrgTokenStore {
  private readonly touched = new Map<string, number>();
  constructor(private readonly sequelize: Sequelize) {}

  /** Generates a new token for the organisation, replacing (and so killing) the previous one. */
  async issue(orgId: number, userId: number | null): Promise<TokenInfo & { token: string; masked: string }> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const hint = `${token.slice(0, 8)}…${token.slice(-4)}`;
    const m = model(this.sequelize);
    // the row as written in the transaction: read back after it, a concurrent refresh may already have replaced it.
    // Two refreshes at once meet on the row's gap in InnoDB: the deadlock victim runs again.
    const row = await retryingTransaction(this.sequelize, async (transaction) => {
      await m.destroy({ where: { orgId }, transaction });
      return m.create({ orgId, tokenHash: sha256(token), hint, createdBy: userId, lastUsedAt: null }, { transaction });
    });
    return { ...info(row.get({ plain: true })), token, masked: hint };
  }

  async current(orgId: number): Promise<TokenInfo | null> {
    const row = await model(this.sequelize).findByPk(orgId);
    return row ? info(row.get({ plain: true })) : null;
  }

  async revoke(orgId: number): Promise<boolean> {
    return (await model(this.sequelize).destroy({ where: { orgId } })) > 0;
  }

  /** The organisation a clear token acts for, or null. */
  async resolve(token: string): Promise<number | null> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
    const hash = sha256(token);
    const row = await model(this.sequelize).findOne({ where: { tokenHash: hash } });
    if (!row) return null;
    const now = Date.now();
    if ((this.touched.get(hash) ?? 0) + TOUCH_EVERY_MS < now) {
      this.touched.set(hash, now);
      await row.update({ lastUsedAt: new Date(now) });
    }
    return row.get('orgId') as number;
  }
}
