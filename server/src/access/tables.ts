/**
 * System tables of the access layer (not metadata resources): sessions, login throttling and
 * the policy version counters that let several server instances share policy changes.
 * Created by the migrations in ./migrations; models defined here on the shared Sequelize.
 */
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';

export interface SessionRow {
  id: string; // sha256 hex of the token
  userId: number;
  loginOrgId: number | null;
  loginEntryCode: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  ip: string | null;
  userAgent: string | null;
  /** the interface language the session signed in with (account mail follows the latest) */
  language?: string | null;
  createdAt?: Date;
}

export interface ThrottleRow {
  key: string; // "user:<name>" or "ip:<address>"
  failures: number;
  windowStart: Date;
  blockedUntil: Date | null;
}

export interface PolicyVersionRow {
  orgId: number;
  version: number;
}

export interface AccessTables {
  session: ModelStatic<Model<SessionRow, SessionRow>>;
  throttle: ModelStatic<Model<ThrottleRow, ThrottleRow>>;
  policyVersion: ModelStatic<Model<PolicyVersionRow, PolicyVersionRow>>;
}

export const SESSION_TABLE = 'sys_session';
export const THROTTLE_TABLE = 'sys_login_throttle';
export const POLICY_VERSION_TABLE = 'sys_policy_version';

export const sessionColumns = {
  id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
  userId: { type: DataTypes.INTEGER, allowNull: false },
  loginOrgId: { type: DataTypes.INTEGER, allowNull: true },
  loginEntryCode: { type: DataTypes.STRING(64), allowNull: true },
  expiresAt: { type: DataTypes.DATE, allowNull: false },
  revokedAt: { type: DataTypes.DATE, allowNull: true },
  ip: { type: DataTypes.STRING(64), allowNull: true },
  userAgent: { type: DataTypes.STRING(255), allowNull: true },
  language: { type: DataTypes.STRING(8), allowNull: true },
  // milliseconds: the latest of two sign-ins in one second decides the account mail's language
  createdAt: { type: DataTypes.DATE(3), allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

export const throttleColumns = {
  key: { type: DataTypes.STRING(191), primaryKey: true, allowNull: false },
  failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  windowStart: { type: DataTypes.DATE, allowNull: false },
  blockedUntil: { type: DataTypes.DATE, allowNull: true },
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

export const policyVersionColumns = {
  orgId: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
  version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

export function defineAccessTables(sequelize: Sequelize): AccessTables {
  const opts = { timestamps: true, freezeTableName: true } as const;
  return {
    session: (sequelize.models.SysSession ?? sequelize.define('SysSession', sessionColumns, { ...opts, tableName: SESSION_TABLE })) as AccessTables['session'],
    throttle: (sequelize.models.SysLoginThrottle ??
      sequelize.define('SysLoginThrottle', throttleColumns, { ...opts, tableName: THROTTLE_TABLE })) as AccessTables['throttle'],
    policyVersion: (sequelize.models.SysPolicyVersion ??
      sequelize.define('SysPolicyVersion', policyVersionColumns, { ...opts, tableName: POLICY_VERSION_TABLE })) as AccessTables['policyVersion'],
  };
}
