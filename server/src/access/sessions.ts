/**
 * Server-side sessions: the client holds a random 32-byte token, the database only its
 * sha256, so a leaked table cannot be replayed. Sessions live one day (SPEC §9 cookie expiry)
 * and die on logout, password change or when their user is locked or deleted.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Op } from 'sequelize';
import type { AccessTables, SessionRow } from './tables';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const newToken = (): string => randomBytes(32).toString('base64url');

export interface NewSession {
  userId: number;
  loginOrgId: number | null;
  loginEntryCode: string | null;
  ip?: string;
  userAgent?: string;
  language?: string;
  /** shorter than a login's day (a render session of the server's own) */
  ttlMs?: number;
}

export class SessionStore {
  constructor(
    private readonly tables: AccessTables,
    private readonly ttlMs = SESSION_TTL_MS,
  ) {}

  /** Creates a session and returns the token (the only time it exists in clear). */
  async create(s: NewSession): Promise<{ token: string; id: string; expiresAt: Date }> {
    const token = newToken();
    const id = hashToken(token);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (s.ttlMs ?? this.ttlMs));
    await this.tables.session.create({
      id,
      userId: s.userId,
      loginOrgId: s.loginOrgId,
      loginEntryCode: s.loginEntryCode,
      expiresAt,
      revokedAt: null,
      ip: s.ip?.slice(0, 64) ?? null,
      userAgent: s.userAgent?.slice(0, 255) ?? null,
      language: s.language ?? null,
    });
    return { token, id, expiresAt };
  }

  /** The live session of a token, or null when unknown, expired or revoked. */
  async find(token: string): Promise<SessionRow | null> {
    if (!token || token.length > 200) return null;
    const row = await this.tables.session.findByPk(hashToken(token));
    if (!row) return null;
    const s = row.get({ plain: true });
    if (s.revokedAt || new Date(s.expiresAt).getTime() <= Date.now()) return null;
    return s;
  }

  async byId(id: string): Promise<SessionRow | null> {
    const row = await this.tables.session.findByPk(id);
    return row ? row.get({ plain: true }) : null;
  }

  /** The language of the user's latest session that recorded one (null: never signed in). */
  async lastLanguage(userId: number): Promise<string | null> {
    const row = await this.tables.session.findOne({ where: { userId, language: { [Op.ne]: null } }, order: [['createdAt', 'DESC']], attributes: ['language'] });
    return (row?.get('language') as string | null | undefined) ?? null;
  }

  async revoke(id: string): Promise<void> {
    await this.tables.session.update({ revokedAt: new Date() }, { where: { id, revokedAt: null } });
  }

  /** Revokes every live session of a user, except one (the caller's own after a password change). */
  async revokeUser(userId: number, exceptId?: string): Promise<void> {
    const where: Record<string | symbol, unknown> = { userId, revokedAt: null };
    if (exceptId) where.id = { [Op.ne]: exceptId };
    await this.tables.session.update({ revokedAt: new Date() }, { where });
  }

  /** Drops sessions that ended more than a day ago (called opportunistically at login). */
  async purge(): Promise<void> {
    const before = new Date(Date.now() - this.ttlMs);
    await this.tables.session.destroy({ where: { expiresAt: { [Op.lt]: before } } });
  }
}
