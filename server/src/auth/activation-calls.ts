/**
 * Activation links of new users (docs/ACCESS.md "First administrator"), opened on the console's
 * `/<entryCode>/activate?token=…` page:
 *   /account/activation  { token }  whose account the link opens (user name, name, organisation),
 *                                   or why not: used, expired, unknown — each said plainly;
 *   /account/activate    { token, newPassword, confirmPassword }  sets the first password
 *                                   (SPEC §5 rule) and spends the link; the page then signs in.
 * Both are public; failures are counted per client address like logins.
 */
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, Language } from '../http/types';
import { msg } from '../access/messages';
import type { AccessService } from '../access/service';
import type { OneTimeCodes } from './one-time-codes';
import { required } from './inputs';
import { isValidPassword } from './password-rule';
import { throttleKeys } from './login-throttle';

export function activationCalls(access: AccessService, codes: OneTimeCodes): CallDef[] {
  const refusal = (lang: Language, state: 'used' | 'expired' | 'unknown') => new ApiError(ErrorCode.codeInvalid, msg(lang, `auth.activation.${state}`));

  /** The live link's user and organisation, or its translated refusal (counted against the address). */
  const live = async (lang: Language, ip: string | undefined, token: string) => {
    const keys = throttleKeys('', ip).filter((k) => k.kind === 'address');
    const wait = await access.throttle.retryAfter(keys);
    if (wait > 0) throw new ApiError(ErrorCode.tooManyAttempts, msg(lang, 'auth.throttled', { seconds: wait }));
    const link = await codes.activation(token);
    const user = link.state === 'live' ? await access.directory.userById(link.userId) : null;
    if (link.state !== 'live' || !user || user.locked) {
      await access.throttle.fail(keys);
      throw refusal(lang, link.state === 'live' ? 'unknown' : link.state);
    }
    const org = link.orgId !== null ? await access.directory.org(link.orgId) : null;
    return { user, org };
  };

  const activation: CallDef = {
    path: '/account/activation',
    public: true,
    async handler({ body, ctx }) {
      const token = required(ctx.language, body, 'token').trim();
      const { user, org } = await live(ctx.language, ctx.ip, token);
      return { username: user.username, realName: user.realName, organization: org ? { name: org.name, entryCode: org.entryCode } : null };
    },
  };

  const activate: CallDef = {
    path: '/account/activate',
    public: true,
    async handler({ body, ctx }) {
      const lang = ctx.language;
      const token = required(lang, body, 'token').trim();
      const newPassword = required(lang, body, 'newPassword');
      const confirmPassword = required(lang, body, 'confirmPassword');
      const { user, org } = await live(lang, ctx.ip, token);
      if (org) ctx.auditAs = { orgId: org.id, operator: user.username, userId: user.id };
      if (newPassword !== confirmPassword) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.passwordInconsistent'));
      if (!isValidPassword(newPassword)) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.passwordRule'));
      const hash = await access.passwords.hash(newPassword);
      // spent first (one conditional update): of two tabs submitting at once exactly one sets the password
      if (!(await codes.spendActivation(token))) throw refusal(lang, 'used');
      await access.directory.setPasswordHash(user.id, hash);
      return { username: user.username, entryCode: org?.entryCode ?? null };
    },
  };

  return [activation, activate];
}
