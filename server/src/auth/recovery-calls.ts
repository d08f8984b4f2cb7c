/**
 * Forgotten password (docs/ACCESS.md "Forgotten password"):
 *   /account/send-captcha   { username (user name or e-mail), entryCode? }
 *     mails a six-digit code, valid 10 minutes, single use, stored as a scrypt hash;
 *   /account/forget-password { username, entryCode?, captcha, newPassword, confirmPassword }
 *     sets a new password (SPEC §5) and ends every session of the user.
 * Both answer the same whether or not the account exists (the code is made and mailed after
 * the answer); sends and wrong codes are counted per account name and per client address, and
 * a code dies after five wrong tries. Each call lands in the admin log of the organisation it
 * acted in (ctx.auditAs), once the account or the entry code names one.
 */
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, Language, RequestContext } from '../http/types';
import { resolveLanguage } from '../i18n/translator';
import { msg } from '../access/messages';
import type { AccessService } from '../access/service';
import type { DirectoryOrg, DirectoryUser } from '../access/directory';
import { defineAccessTables } from '../access/tables';
import type { MailService } from '../mail/types';
import { LoginThrottle, type ThrottleKey, type ThrottleLimit } from './login-throttle';
import { RESET_CODE_TTL_MS, type OneTimeCodes } from './one-time-codes';
import { isValidPassword } from './password-rule';
import { required, str } from './inputs';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface RecoveryThrottle {
  /** codes sent for one account name (any address) */
  sendAccount: ThrottleLimit;
  /** codes sent from one client address (any account) */
  sendAddress: ThrottleLimit;
  /** wrong codes for one account name */
  checkAccount: ThrottleLimit;
  /** wrong codes from one client address */
  checkAddress: ThrottleLimit;
}

export const RECOVERY_THROTTLE: RecoveryThrottle = {
  sendAccount: { maxFailures: 3, windowMs: HOUR, baseBlockMs: 10 * MINUTE, maxBlockMs: HOUR },
  sendAddress: { maxFailures: 10, windowMs: HOUR, baseBlockMs: 10 * MINUTE, maxBlockMs: HOUR },
  checkAccount: { maxFailures: 5, windowMs: HOUR, baseBlockMs: 15 * MINUTE, maxBlockMs: HOUR },
  checkAddress: { maxFailures: 20, windowMs: HOUR, baseBlockMs: 15 * MINUTE, maxBlockMs: HOUR },
};

export interface RecoveryDeps {
  codes: OneTimeCodes;
  mail: () => MailService | undefined;
  log: (message: string, err?: unknown) => void;
  throttle?: Partial<RecoveryThrottle>;
  /** a scrypt hash verified against when there is no code, so every answer costs the same */
  dummy: () => Promise<string>;
}

const keysOf = (prefix: string, account: string, ip: string | undefined): ThrottleKey[] => {
  const name = account.trim().toLowerCase();
  const keys: ThrottleKey[] = [{ key: `${prefix}:user:${name}`.slice(0, 191), kind: 'user' }];
  if (ip) keys.push({ key: `${prefix}:ip:${ip}`.slice(0, 191), kind: 'address' });
  return keys;
};

export function recoveryCalls(access: AccessService, deps: RecoveryDeps): CallDef[] {
  const limits = { ...RECOVERY_THROTTLE, ...deps.throttle };
  const tables = defineAccessTables(access.sequelize);
  const sends = new LoginThrottle(tables, { user: limits.sendAccount, address: limits.sendAddress, pair: limits.sendAccount });
  const checks = new LoginThrottle(tables, { user: limits.checkAccount, address: limits.checkAddress, pair: limits.checkAccount });
  const minutes = Math.round(RESET_CODE_TTL_MS / MINUTE);

  const refuseWhile = async (throttle: LoginThrottle, lang: Language, keys: ThrottleKey[]) => {
    const wait = await throttle.retryAfter(keys);
    if (wait > 0) throw new ApiError(ErrorCode.tooManyAttempts, msg(lang, 'auth.resetThrottled', { seconds: wait }));
  };

  const readAccount = (lang: Language, body: Record<string, unknown>) => {
    const v = str(body.username).trim();
    if (!v) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.accountRequired'));
    return v;
  };

  /**
   * The one account a user name or e-mail names (within the entry code's organisation when
   * given), and the organisation the steps are logged in. An e-mail shared by several
   * accounts names none of them.
   */
  const findAccount = async (
    ctx: RequestContext,
    account: string,
    entryCode: string | null,
  ): Promise<{ user: DirectoryUser | null; org: DirectoryOrg | null }> => {
    let org: DirectoryOrg | null = null;
    if (entryCode) {
      org = await access.directory.orgByEntryCode(entryCode);
      if (!org) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'auth.unknownEntryCode', { entryCode }));
    }
    const byName = await access.directory.userByName(account);
    let candidates = byName ? [byName] : account.includes('@') ? await access.directory.usersByEmail(account) : [];
    if (org) candidates = candidates.filter((u) => u.organizationIds.includes(org!.id));
    const user = candidates.length === 1 && !candidates[0].locked ? candidates[0] : null;
    if (!org && user?.organizationIds.length) org = await access.directory.org(user.organizationIds[0]);
    if (org) ctx.auditAs = { orgId: org.id, operator: (user?.username ?? account).slice(0, 50), userId: user?.id };
    return { user, org };
  };

  /** Makes the code and mails it, after the answer: the answer's time says nothing of the account. */
  const deliver = async (user: DirectoryUser, org: DirectoryOrg | null, requestLanguage: Language) => {
    const mail = deps.mail();
    if (!mail) {
      deps.log(`[account] no mail service (the scheduler plugin provides it): no reset code was sent to user ${user.id}`);
      return;
    }
    const { code } = await deps.codes.issueReset(user.id, org?.id ?? null);
    // the language the user last signed in with, else the one the code was asked in
    const last = await access.sessions.lastLanguage(user.id);
    const lang = last ? resolveLanguage(last) : requestLanguage;
    await mail.send({
      to: [user.email!],
      subject: msg(lang, 'mail.resetSubject', { code }),
      text: msg(lang, 'mail.resetText', { name: user.realName || user.username, username: user.username, code, minutes }),
    });
  };

  const sendCaptcha: CallDef = {
    path: '/account/send-captcha',
    public: true,
    async handler({ body, ctx }) {
      const lang = ctx.language;
      const account = readAccount(lang, body);
      const entryCode = str(body.entryCode).trim() || null;
      const keys = keysOf('reset-send', account, ctx.ip);
      await refuseWhile(sends, lang, keys);
      // every request counts, whether or not the account exists
      await sends.fail(keys);
      const { user, org } = await findAccount(ctx, account, entryCode);
      if (user?.email) void deliver(user, org, lang).catch((err) => deps.log('[account] sending a reset code failed', err));
      return { minutes };
    },
  };

  const forgetPassword: CallDef = {
    path: '/account/forget-password',
    public: true,
    async handler({ body, ctx }) {
      const lang = ctx.language;
      const account = readAccount(lang, body);
      const entryCode = str(body.entryCode).trim() || null;
      const captcha = required(lang, body, 'captcha').trim();
      const newPassword = required(lang, body, 'newPassword');
      const confirmPassword = required(lang, body, 'confirmPassword');
      if (newPassword !== confirmPassword) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.passwordInconsistent'));
      if (!isValidPassword(newPassword)) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.passwordRule'));
      const keys = keysOf('reset-check', account, ctx.ip);
      await refuseWhile(checks, lang, keys);
      const { user } = await findAccount(ctx, account, entryCode);
      const outcome = user ? await deps.codes.spendReset(user.id, captcha) : 'none';
      if (outcome !== 'ok') {
        // no live code took the time of a comparison: take it here
        if (outcome === 'none') await access.passwords.verify(captcha, await deps.dummy());
        await checks.fail(keys);
        throw new ApiError(ErrorCode.codeInvalid, msg(lang, 'auth.codeInvalid'));
      }
      await access.directory.setPasswordHash(user!.id, await access.passwords.hash(newPassword));
      await access.sessions.revokeUser(user!.id);
      await deps.codes.voidResets(user!.id);
      return null;
    },
  };

  return [sendCaptcha, forgetPassword];
}
