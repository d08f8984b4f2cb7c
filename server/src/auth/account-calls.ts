/**
 * Account calls (docs/API.md "Account and session calls"): login (password or one-time
 * ticket), logout, password change, info, the public organisation basics for the login page,
 * the forgotten-password calls (./recovery-calls) and login tickets (./ticket-call).
 */
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, Language, RequestContext } from '../http/types';
import { msg } from '../access/messages';
import type { AccessService } from '../access/service';
import type { DirectoryOrg, DirectoryUser } from '../access/directory';
import type { MailService } from '../mail/types';
import { OneTimeCodes } from './one-time-codes';
import { recoveryCalls, type RecoveryThrottle } from './recovery-calls';
import { ticketCall } from './ticket-call';
import { activationCalls } from './activation-calls';
import { required, str } from './inputs';
import { throttleKeys, type ThrottleKey } from './login-throttle';
import { isValidPassword } from './password-rule';
import { sessionInfo } from './session-info';
import { publicTheme } from '../access/theme-calls';

const badCredentials = (lang: Language) => new ApiError(ErrorCode.badCredentials, msg(lang, 'auth.badCredentials'));

async function refuseWhileThrottled(access: AccessService, lang: Language, keys: ThrottleKey[]): Promise<void> {
  const wait = await access.throttle.retryAfter(keys);
  if (wait > 0) throw new ApiError(ErrorCode.tooManyAttempts, msg(lang, 'auth.throttled', { seconds: wait }));
}

export interface AccountOptions {
  /** the platform's mail service (provided by a plugin), read when a mail is due */
  mail?: () => MailService | undefined;
  log?: (message: string, err?: unknown) => void;
  /** one-time codes and tickets (tests shorten their lives) */
  codes?: OneTimeCodes;
  recoveryThrottle?: Partial<RecoveryThrottle>;
}

export function accountCalls(access: AccessService, opts: AccountOptions = {}): CallDef[] {
  // Verified against when the user name is unknown, so both failures take the same time.
  let dummyHash: Promise<string> | null = null;
  const dummy = () => (dummyHash ??= access.passwords.hash('not-a-password-' + Math.random()));
  const codes = opts.codes ?? new OneTimeCodes(access.sequelize, access.passwords);

  /** A session in an organisation and the login answer (password and ticket logins alike). */
  const openSession = async (ctx: RequestContext, user: DirectoryUser, loginOrg: DirectoryOrg, entryCode: string | null) => {
    // the organisation's own spelling: `/NORDIC/login` is a login into `nordic`
    const loginEntryCode = entryCode ? (loginOrg.entryCode ?? entryCode) : null;
    const session = await access.sessions.create({
      userId: user.id,
      loginOrgId: loginOrg.id,
      loginEntryCode,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      language: ctx.language,
    });
    void access.sessions.purge().catch(() => undefined);
    const orgIds = entryCode ? [loginOrg.id] : user.organizationIds;
    const info = await sessionInfo(access, ctx.language, user, orgIds, loginOrg, loginEntryCode, loginOrg.id);
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), ...info };
  };

  /**
   * `/{entryCode}/login?ticket=…`: a one-time ticket an integrator asked for (/account/authLogin)
   * signs its user into its organisation, confined to it like an entry-code login.
   */
  const ticketLogin = async (ctx: RequestContext, ticket: string, entryCode: string | null) => {
    const lang = ctx.language;
    const keys = throttleKeys('', ctx.ip).filter((k) => k.kind === 'address');
    await refuseWhileThrottled(access, lang, keys);
    const invalid = async () => {
      await access.throttle.fail(keys);
      return new ApiError(ErrorCode.codeInvalid, msg(lang, 'auth.ticketInvalid'));
    };
    // spent before anything else is checked: a ticket shown at the wrong door is gone too
    const spent = await codes.spendTicket(ticket);
    if (!spent) throw await invalid();
    const org = await access.directory.org(spent.orgId);
    const user = await access.directory.userById(spent.userId);
    ctx.auditAs = { orgId: spent.orgId, operator: user?.username, userId: spent.userId };
    // confined to the ticket's organisation like an entry-code login: it needs its entry code
    if (!org?.entryCode || !user || !user.organizationIds.includes(org.id)) throw await invalid();
    if (entryCode) {
      const door = await access.directory.orgByEntryCode(entryCode);
      if (!door || door.id !== org.id) throw await invalid();
    }
    if (user.locked) throw new ApiError(ErrorCode.locked, msg(lang, 'auth.locked'));
    return openSession(ctx, user, org, org.entryCode);
  };

  const login: CallDef = {
    path: '/account/login',
    public: true,
    async handler({ body, ctx }) {
      const lang = ctx.language;
      if (body.ticket !== undefined) {
        const ticket = required(lang, body, 'ticket').trim();
        return ticketLogin(ctx, ticket, str(body.entryCode).trim() || null);
      }
      const username = required(lang, body, 'username').trim();
      const password = required(lang, body, 'password');
      const entryCode = str(body.entryCode).trim() || null;
      const keys = throttleKeys(username, ctx.ip);
      await refuseWhileThrottled(access, lang, keys);

      const user = await access.directory.userByName(username);
      const ok = user?.passwordHash
        ? await access.passwords.verify(password, user.passwordHash)
        : (await access.passwords.verify(password, await dummy()), false);
      if (!user || !ok) {
        await access.throttle.fail(keys);
        throw badCredentials(lang);
      }
      if (user.locked) throw new ApiError(ErrorCode.locked, msg(lang, 'auth.locked'));
      await access.throttle.succeed(username, ctx.ip);

      let loginOrg: DirectoryOrg | null;
      if (entryCode) {
        loginOrg = await access.directory.orgByEntryCode(entryCode);
        if (!loginOrg) throw new ApiError(ErrorCode.orgNotAllowed, msg(lang, 'auth.unknownEntryCode', { entryCode }));
        if (!user.organizationIds.includes(loginOrg.id)) throw new ApiError(ErrorCode.orgNotAllowed, msg(lang, 'access.orgNotAllowed'));
      } else {
        loginOrg = user.organizationIds.length ? await access.directory.org(user.organizationIds[0]) : null;
        if (!loginOrg) throw new ApiError(ErrorCode.orgNotAllowed, msg(lang, 'auth.noOrganization'));
      }

      return openSession(ctx, user, loginOrg, entryCode);
    },
  };

  const sessionUser = async (ctx: RequestContext) => {
    const user = ctx.user && ctx.via === 'session' ? await access.directory.userById(ctx.user.id) : null;
    if (!user) throw new ApiError(ErrorCode.invalidSession, msg(ctx.language, 'access.invalidSession'), {}, 401);
    return user;
  };

  const logout: CallDef = {
    path: '/account/logout',
    permission: null,
    async handler({ ctx }) {
      if (ctx.sessionId) await access.sessions.revoke(ctx.sessionId);
      return null;
    },
  };

  const info: CallDef = {
    path: '/account/info',
    permission: null,
    async handler({ ctx }) {
      const user = await sessionUser(ctx);
      const session = ctx.sessionId ? await access.sessions.byId(ctx.sessionId) : null;
      const loginOrg = session?.loginOrgId ? await access.directory.org(session.loginOrgId) : null;
      return sessionInfo(access, ctx.language, user, ctx.orgIds, loginOrg, session?.loginEntryCode ?? null, ctx.orgId);
    },
  };

  const passwordChange: CallDef = {
    path: '/account/password/change',
    permission: null,
    async handler({ body, ctx }) {
      const lang = ctx.language;
      const user = await sessionUser(ctx);
      const oldPassword = required(lang, body, 'oldPassword');
      const newPassword = required(lang, body, 'newPassword');
      const confirmPassword = required(lang, body, 'confirmPassword');
      if (newPassword !== confirmPassword) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.passwordInconsistent'));
      if (!isValidPassword(newPassword)) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.passwordRule'));
      // The old password is a credential check like login: same throttle, so a stolen session cannot guess it.
      const keys = throttleKeys(user.username, ctx.ip);
      await refuseWhileThrottled(access, lang, keys);
      if (!user.passwordHash || !(await access.passwords.verify(oldPassword, user.passwordHash))) {
        await access.throttle.fail(keys);
        throw new ApiError(ErrorCode.badCredentials, msg(lang, 'auth.oldPasswordWrong'));
      }
      if (oldPassword === newPassword) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.passwordUnchanged'));
      await access.directory.setPasswordHash(user.id, await access.passwords.hash(newPassword));
      await access.sessions.revokeUser(user.id, ctx.sessionId);
      return null;
    },
  };

  const organizationBasic: CallDef = {
    path: '/organization/basic',
    public: true,
    async handler({ body, ctx }) {
      const entryCode = required(ctx.language, body, 'entryCode').trim();
      const org = await access.directory.orgByEntryCode(entryCode);
      if (!org) throw new ApiError(ErrorCode.notFound, msg(ctx.language, 'auth.unknownEntryCode', { entryCode }));
      // stored images become public URLs of this entry code: the login page has no session to download them
      const theme = publicTheme(org.entryCode ?? entryCode, org.theme);
      return { id: org.id, name: org.name, shortName: org.shortName, entryCode: org.entryCode, theme };
    },
  };

  const recovery = recoveryCalls(access, {
    codes,
    mail: opts.mail ?? (() => undefined),
    log: opts.log ?? (() => undefined),
    throttle: opts.recoveryThrottle,
    dummy,
  });
  return [login, logout, info, passwordChange, organizationBasic, ...recovery, ticketCall(access, codes), ...activationCalls(access, codes)];
}
