/**
 * One-time credentials of accounts (docs/ACCESS.md "Forgotten password", "Login tickets"):
 * - reset codes: six digits mailed to the user, valid minutes, stored as a scrypt hash, dead
 *   after a few wrong tries; a new code replaces the user's previous ones;
 * - login tickets: 32 random bytes handed to an integrator, stored as sha256 (looked up by it),
 *   valid under a minute;
 * - activation links: 32 random bytes mailed to a new user (the first administrator of a new
 *   organisation), stored as sha256, valid three days, spent by setting the first password.
 * Both are spent by one conditional UPDATE (`usedAt IS NULL AND expiresAt > now`), so of two
 * concurrent uses exactly one wins. Table `sys_one_time_code`, created by access/migrations.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { DataTypes, Op, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';

export const ONE_TIME_CODE_TABLE = 'sys_one_time_code';

export type OneTimePurpose = 'reset' | 'ticket' | 'activation';

export const oneTimeCodeColumns = {
  id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
  purpose: { type: DataTypes.STRING(16), allowNull: false },
  userId: { type: DataTypes.INTEGER, allowNull: false },
  orgId: { type: DataTypes.INTEGER, allowNull: true },
  /** sha256 hex of a ticket (looked up by it); null for reset codes */
  lookup: { type: DataTypes.STRING(64), allowNull: true, unique: true },
  /** scrypt hash of a reset code; null for tickets */
  secretHash: { type: DataTypes.STRING(255), allowNull: true },
  attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  expiresAt: { type: DataTypes.DATE, allowNull: false },
  usedAt: { type: DataTypes.DATE, allowNull: true },
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

export interface OneTimeCodeRow {
  id: number;
  purpose: OneTimePurpose;
  userId: number;
  orgId: number | null;
  lookup: string | null;
  secretHash: string | null;
  attempts: number;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Reset codes: 6 digits, 10 minutes, dead after 5 wrong tries. Tickets: 60 seconds. */
export const RESET_CODE_TTL_MS = 10 * 60_000;
export const RESET_CODE_MAX_ATTEMPTS = 5;
export const TICKET_TTL_MS = 60_000;
/** an activation link lives three days (mailed on a Friday, opened on Monday) */
export const ACTIVATION_TTL_MS = 3 * 24 * 3600_000;

/** What an activation token is: live (its user and organisation), spent, expired or unknown. */
export type ActivationState = { state: 'live'; userId: number; orgId: number | null; expiresAt: Date } | { state: 'used' | 'expired' | 'unknown' };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

type CodeModel = ModelStatic<Model<OneTimeCodeRow, Partial<OneTimeCodeRow>>>;

export function oneTimeCodeModel(sequelize: Sequelize): CodeModel {
  return (sequelize.models.SysOneTimeCode ??
    sequelize.define('SysOneTimeCode', oneTimeCodeColumns, { tableName: ONE_TIME_CODE_TABLE, freezeTableName: true, timestamps: true })) as CodeModel;
}

export interface Hasher {
  hash(plain: string): Promise<string>;
  verify(plain: string, hash: string): Promise<boolean>;
}

export class OneTimeCodes {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly hasher: Hasher,
    private readonly ttl = { reset: RESET_CODE_TTL_MS, ticket: TICKET_TTL_MS },
  ) {}

  private get model(): CodeModel {
    return oneTimeCodeModel(this.sequelize);
  }

  /** A new reset code for a user (the only time it exists in clear); the user's earlier codes die. */
  async issueReset(userId: number, orgId: number | null): Promise<{ code: string; expiresAt: Date }> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expiresAt = new Date(Date.now() + this.ttl.reset);
    const secretHash = await this.hasher.hash(code);
    await this.voidResets(userId);
    await this.model.create({ purpose: 'reset', userId, orgId, lookup: null, secretHash, attempts: 0, expiresAt, usedAt: null });
    return { code, expiresAt };
  }

  /** Every live reset code of a user stops working (a new code, a successful reset). */
  async voidResets(userId: number): Promise<void> {
    await this.model.update({ usedAt: new Date() }, { where: { purpose: 'reset', userId, usedAt: null } });
  }

  /**
   * Checks a reset code against the user's live one and spends it when right. A wrong code
   * counts against it; at the limit it dies. `ok` only for the one caller that spent it.
   */
  async spendReset(userId: number, code: string): Promise<'ok' | 'wrong' | 'none'> {
    const now = new Date();
    const row = await this.model.findOne({
      where: { purpose: 'reset', userId, usedAt: null, expiresAt: { [Op.gt]: now }, attempts: { [Op.lt]: RESET_CODE_MAX_ATTEMPTS } },
      order: [['id', 'DESC']],
    });
    if (!row) return 'none';
    const r = row.get({ plain: true });
    const right = /^\d{6}$/.test(code) && r.secretHash !== null && (await this.hasher.verify(code, r.secretHash));
    if (!right) {
      // one conditional increment per wrong try; the try that reaches the limit also ends the code
      await this.model.increment('attempts', { by: 1, where: { id: r.id } });
      await this.model.update({ usedAt: new Date() }, { where: { id: r.id, usedAt: null, attempts: { [Op.gte]: RESET_CODE_MAX_ATTEMPTS } } });
      return 'wrong';
    }
    const [spent] = await this.model.update(
      { usedAt: new Date() },
      { where: { id: r.id, usedAt: null, expiresAt: { [Op.gt]: new Date() }, attempts: { [Op.lt]: RESET_CODE_MAX_ATTEMPTS } } },
    );
    return spent === 1 ? 'ok' : 'none';
  }

  /** A login ticket for one user of one organisation (the only time it exists in clear). */
  async issueTicket(userId: number, orgId: number): Promise<{ ticket: string; expiresAt: Date }> {
    const ticket = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.ttl.ticket);
    await this.model.create({ purpose: 'ticket', userId, orgId, lookup: sha256(ticket), secretHash: null, attempts: 0, expiresAt, usedAt: null });
    return { ticket, expiresAt };
  }

  /** Spends a ticket: its user and organisation, or null when unknown, used or expired. */
  async spendTicket(ticket: string): Promise<{ userId: number; orgId: number } | null> {
    if (!/^[\w-]{20,100}$/.test(ticket)) return null;
    const lookup = sha256(ticket);
    const [spent] = await this.model.update({ usedAt: new Date() }, { where: { purpose: 'ticket', lookup, usedAt: null, expiresAt: { [Op.gt]: new Date() } } });
    if (spent !== 1) return null;
    const row = await this.model.findOne({ where: { lookup } });
    const r = row?.get({ plain: true });
    return r && r.orgId !== null ? { userId: r.userId, orgId: r.orgId } : null;
  }

  /**
   * An activation link for a new user (the only time it exists in clear); the user's earlier
   * links die. Inside the transaction that creates the user, so a failed create leaves none.
   */
  async issueActivation(
    userId: number,
    orgId: number | null,
    transaction?: Transaction,
    ttlMs = ACTIVATION_TTL_MS,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.model.update({ usedAt: new Date() }, { where: { purpose: 'activation', userId, usedAt: null }, transaction });
    await this.model.create(
      { purpose: 'activation', userId, orgId, lookup: sha256(token), secretHash: null, attempts: 0, expiresAt, usedAt: null },
      { transaction },
    );
    return { token, expiresAt };
  }

  /** Reads an activation token without spending it (the page says whose account it opens, or why not). */
  async activation(token: string): Promise<ActivationState> {
    if (!/^[\w-]{20,100}$/.test(token)) return { state: 'unknown' };
    const row = await this.model.findOne({ where: { purpose: 'activation', lookup: sha256(token) } });
    const r = row?.get({ plain: true });
    if (!r) return { state: 'unknown' };
    if (r.usedAt) return { state: 'used' };
    if (new Date(r.expiresAt).getTime() <= Date.now()) return { state: 'expired' };
    return { state: 'live', userId: r.userId, orgId: r.orgId, expiresAt: new Date(r.expiresAt) };
  }

  /** Spends an activation token: true for the one caller whose conditional update won. */
  async spendActivation(token: string, transaction?: Transaction): Promise<boolean> {
    if (!/^[\w-]{20,100}$/.test(token)) return false;
    const [spent] = await this.model.update(
      { usedAt: new Date() },
      { where: { purpose: 'activation', lookup: sha256(token), usedAt: null, expiresAt: { [Op.gt]: new Date() } }, transaction },
    );
    return spent === 1;
  }

  /** Drops codes that ended more than a day ago (activation links are kept: a late click is told "expired", not "unknown"). */
  async purge(): Promise<void> {
    await this.model.destroy({ where: { purpose: { [Op.ne]: 'activation' }, expiresAt: { [Op.lt]: new Date(Date.now() - 24 * 3600_000) } } });
  }
}
