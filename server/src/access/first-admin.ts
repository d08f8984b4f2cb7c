/**
 * The first administrator of a new organisation (docs/ACCESS.md "First administrator"), named
 * in the create form's write-only `firstAdmin` value:
 *   { userId }                       an existing user becomes member and Administrator;
 *   { username, email, realName }    a new user is created there without a password and mailed
 *                                    a single-use activation link (`/<entryCode>/activate?token=…`,
 *                                    valid three days) that sets the first password.
 * Everything is written in the organisation's create transaction; the mail leaves after the
 * commit, so a refused create mails nobody and a sent link always opens a real account.
 */
import { type Model, type ModelStatic, type Transaction } from 'sequelize';
import { namedPatterns } from '@rti/metadata';
import { ApiError, ErrorCode } from '../http/api-error';
import type { Language, RequestContext } from '../http/types';
import type { MailService } from '../mail/types';
import type { OneTimeCodes } from '../auth/one-time-codes';
import { ACTIVATION_TTL_MS } from '../auth/one-time-codes';
import { msg } from './messages';

export const FIRST_ADMIN_FIELD = 'firstAdmin';

/** the user field rules (metadata user.json `name`, `realName`, `email`) */
const USERNAME = /^[A-Za-z0-9_.@-]{2,50}$/;

export type FirstAdmin = { kind: 'existing'; userId: number } | { kind: 'new'; username: string; email: string; realName: string; origin: string | null };

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** An http(s) origin, else null (the console sends its own so the link opens the same console). */
function originOf(v: unknown): string | null {
  try {
    const u = new URL(text(v));
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The value of the form, checked before anything is written. A value naming neither a user
 * nor a login is no first administrator (the creator stays the only one).
 */
export function readFirstAdmin(lang: Language, raw: unknown): FirstAdmin | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const v = raw as Record<string, unknown>;
  const bad = (key: string, params: Record<string, unknown> = {}) => new ApiError(ErrorCode.validation, msg(lang, key, params));
  if (v.userId !== undefined && v.userId !== null && v.userId !== '') {
    const id = Number(v.userId);
    if (!Number.isInteger(id) || id <= 0) throw bad('firstAdmin.userUnknown');
    return { kind: 'existing', userId: id };
  }
  if (v.username === undefined && v.email === undefined && v.realName === undefined) return null;
  const username = text(v.username);
  const email = text(v.email);
  const realName = text(v.realName);
  if (!username) throw bad('firstAdmin.required', { name: msg(lang, 'field.username') });
  if (!USERNAME.test(username)) throw bad('firstAdmin.usernameRule');
  if (!email) throw bad('firstAdmin.required', { name: msg(lang, 'field.email') });
  if (email.length > 100 || !namedPatterns.email.test(email)) throw bad('firstAdmin.emailRule', { email });
  if (!realName) throw bad('firstAdmin.required', { name: msg(lang, 'field.realName') });
  if (realName.length > 50) throw bad('firstAdmin.realNameLong');
  return { kind: 'new', username, email, realName, origin: originOf(v.origin) };
}

export interface FirstAdminDeps {
  users: () => ModelStatic<Model>;
  orgs: () => ModelStatic<Model>;
  codes: () => OneTimeCodes;
  mail: () => MailService | undefined;
  /** config.publicUrl: the console's origin behind a proxy (else the origin the console sent) */
  publicUrl: () => string;
  log: (message: string, err?: unknown) => void;
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isInteger(n) && n > 0) : []);

/** The activation page of an organisation: `<origin>/<entryCode>/activate?token=…`. */
export function activationUrl(origin: string, entryCode: string | null, token: string): string {
  return `${origin}${entryCode ? '/' + encodeURIComponent(entryCode) : ''}/activate?token=${encodeURIComponent(token)}`;
}

/** Checks a named existing user, or that a new login is free — before the organisation is written. */
export async function checkFirstAdmin(deps: FirstAdminDeps, ctx: RequestContext, admin: FirstAdmin, transaction: Transaction): Promise<void> {
  const lang = ctx.language;
  if (admin.kind === 'existing') {
    const user = await deps.users().findByPk(admin.userId, { transaction });
    // only a user the creator can see (a member of one of the creator's organisations)
    const visible =
      user &&
      ids(user.get('organizationIds'))
        .concat(Number(user.get('orgId')))
        .some((o) => ctx.orgIds.includes(o));
    if (!user || !visible) throw new ApiError(ErrorCode.validation, msg(lang, 'firstAdmin.userUnknown'));
    if (user.get('locked')) throw new ApiError(ErrorCode.validation, msg(lang, 'firstAdmin.userLocked', { name: user.get('name') }));
    return;
  }
  const taken = await deps.users().findOne({ where: { name: admin.username }, transaction });
  if (taken) throw new ApiError(ErrorCode.duplicate, msg(lang, 'firstAdmin.usernameTaken', { name: admin.username }));
}

/**
 * Makes the first administrator a member holding the Administrator role; a new user gets an
 * activation link mailed once the create has committed.
 */
export async function placeFirstAdmin(
  deps: FirstAdminDeps,
  ctx: RequestContext,
  admin: FirstAdmin,
  org: { id: number; name: string; entryCode: string | null },
  adminRoleId: number,
  transaction: Transaction,
): Promise<void> {
  const users = deps.users();
  if (admin.kind === 'existing') {
    const user = (await users.findByPk(admin.userId, { transaction }))!;
    user.set({
      organizationIds: [...new Set([...ids(user.get('organizationIds')), org.id])],
      roleIds: [...new Set([...ids(user.get('roleIds')), adminRoleId])],
    });
    await user.save({ transaction, hooks: false });
    return;
  }
  const now = new Date();
  // no password until the link is opened: nobody can sign in as this user before then
  const user = await users.create(
    {
      orgId: org.id,
      name: admin.username,
      realName: admin.realName,
      email: admin.email,
      password: null,
      locked: false,
      sysOrgUser: false,
      organizationIds: [org.id],
      roleIds: [adminRoleId],
      createdBy: ctx.user?.id ?? null,
      updatedBy: ctx.user?.id ?? null,
      createdAt: now,
      updatedAt: now,
    },
    { transaction, hooks: false },
  );
  const userId = Number(user.get('id'));
  const { token, expiresAt } = await deps.codes().issueActivation(userId, org.id, transaction);
  const origin = deps.publicUrl() || admin.origin || '';
  const url = activationUrl(origin, org.entryCode, token);
  const lang = ctx.language;
  const mail = {
    to: [admin.email],
    subject: msg(lang, 'mail.activationSubject', { org: org.name }),
    text: msg(lang, 'mail.activationText', {
      name: admin.realName,
      org: org.name,
      username: admin.username,
      url,
      days: Math.round(ACTIVATION_TTL_MS / 86_400_000),
      expires: expiresAt.toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    }),
  };
  transaction.afterCommit(() => {
    const service = deps.mail();
    if (!service) {
      deps.log(`[onboarding] no mail service (the scheduler plugin provides it): the activation link of user ${admin.username} was not sent`);
      return;
    }
    void service.send(mail).catch((err) => deps.log(`[onboarding] sending the activation mail of user ${admin.username} failed`, err));
  });
}
