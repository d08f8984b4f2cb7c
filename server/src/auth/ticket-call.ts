/**
 * `/account/authLogin` (docs/ACCESS.md "Login tickets"): an integrator's portal, holding its
 * organisation's open-API token, asks for a one-time ticket for one user of that
 * organisation; the browser it opens at `/{entryCode}/login?ticket=…` is signed in without a
 * password (`/account/login { ticket }`). Tickets are single use, live 60 seconds, name one
 * user of the token's organisation, and are refused for locked and platform users.
 */
import { ApiError, ErrorCode } from '../http/api-error';
import { readId, readText } from '../http/params';
import type { CallDef } from '../http/types';
import { msg } from '../access/messages';
import type { AccessService } from '../access/service';
import type { OneTimeCodes } from './one-time-codes';

export function ticketCall(access: AccessService, codes: OneTimeCodes): CallDef {
  return {
    path: '/account/authLogin',
    // its own Api code (ApiAccountAuthLogin), held by the token through the organisation's set
    async handler({ body, ctx }) {
      const lang = ctx.language;
      // a person's session may not become another person: only the organisation's token asks
      // a scoped token (limited resources or read-only) never signs a user in with the user's whole power
      if (ctx.via !== 'org-token' || ctx.orgId === null || ctx.scope) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.ticketTokenOnly'));
      const username = readText(body, 'username', { label: 'server.field.username' });
      const userId = readId(body, 'userId');
      if (!username && userId === undefined) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.ticketUserRequired'));
      const user = username ? await access.directory.userByName(username) : await access.directory.userById(userId!);
      // another organisation's user reads like no user at all; platform users act across
      // organisations, which no organisation's token may hand out
      if (!user || !user.organizationIds.includes(ctx.orgId) || user.sysOrgUser || (userId !== undefined && user.id !== userId)) {
        throw new ApiError(ErrorCode.notFound, msg(lang, 'auth.ticketUserUnknown'));
      }
      if (user.locked) throw new ApiError(ErrorCode.locked, msg(lang, 'auth.locked'));
      const org = await access.directory.org(ctx.orgId);
      if (!org?.entryCode) throw new ApiError(ErrorCode.validation, msg(lang, 'auth.ticketNoEntryCode'));
      const { ticket, expiresAt } = await codes.issueTicket(user.id, org.id);
      return {
        ticket,
        expiresAt: expiresAt.toISOString(),
        userId: user.id,
        username: user.username,
        entryCode: org.entryCode,
        loginPath: `/${encodeURIComponent(org.entryCode)}/login?ticket=${ticket}`,
      };
    },
  };
}
