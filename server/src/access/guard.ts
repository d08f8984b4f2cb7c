/**
 * The one guard every call passes (http/dispatcher): who is calling (session or a plugin's
 * token strategy), in which organisation (OrgId header, checked against the caller's
 * organisations), which warehouses bound them, and whether Casbin grants the call's code.
 */
import type { Request } from 'express';
import type { Sequelize } from 'sequelize';
import { resolveLanguage } from '../i18n/translator';
import { ApiError, ErrorCode } from '../http/api-error';
import type { CallDef, CallGuard, Language, RequestContext } from '../http/types';
import type { AuthStrategies, StrategyIdentity } from './auth-strategies';
import { tokenSubject, userSubject } from './casbin-model';
import type { Directory } from './directory';
import { msg } from './messages';
import type { PolicyEngine } from './policies';
import type { SessionStore } from './sessions';

export interface GuardDeps {
  sequelize: Sequelize;
  directory: Directory;
  sessions: SessionStore;
  policies: PolicyEngine;
  strategies: AuthStrategies;
}

export const invalidSession = (lang: Language) => new ApiError(ErrorCode.invalidSession, msg(lang, 'access.invalidSession'), {}, 401);

/** OrgId header → positive integer, undefined when absent; anything else is refused like a foreign org. */
function orgHeader(req: Request, lang: Language): number | undefined {
  const raw = req.get('OrgId');
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new ApiError(ErrorCode.orgNotAllowed, msg(lang, 'access.orgNotAllowed'), {}, 403);
  return n;
}

export function createGuard(deps: GuardDeps): CallGuard {
  return {
    async authenticate(req: Request, call: CallDef): Promise<RequestContext> {
      const language = resolveLanguage(req.get('Language'));
      const base = { language, ip: req.ip, userAgent: req.get('User-Agent') ?? undefined };
      const token = req.get('Token')?.trim() ?? '';
      if (call.public) {
        return { ...base, user: null, orgId: null, orgIds: [], warehouseIds: null, via: 'public' };
      }
      if (!token) throw invalidSession(language);

      const asToken = (who: StrategyIdentity): RequestContext => {
        const wanted = orgHeader(req, language);
        if (wanted !== undefined && wanted !== who.orgId) {
          throw new ApiError(ErrorCode.orgNotAllowed, msg(language, 'access.orgNotAllowed'), {}, 403);
        }
        return {
          ...base,
          // A token acts for its organisation, not for a person: id 0 never matches a user row.
          user: { id: 0, username: who.label, realName: null, sysOrgUser: false },
          orgId: who.orgId,
          orgIds: [who.orgId],
          warehouseIds: null,
          via: 'org-token',
          ...(who.scope ? { scope: who.scope } : {}),
        };
      };
      // a strategy that recognises the token by its prefix is asked before the session table
      // (one lookup instead of two); a session token that happens to look like one still works
      const strategies = deps.strategies.all();
      const first = strategies.filter((s) => s.prefix && token.startsWith(s.prefix));
      for (const strategy of first) {
        const who = await strategy.authenticate(token, { req, sequelize: deps.sequelize });
        if (who) return asToken(who);
      }

      const session = await deps.sessions.find(token);
      if (session) {
        const user = await deps.directory.userById(session.userId);
        if (!user || user.locked) throw invalidSession(language);
        // An entry-code login is confined to that organisation (SPEC §1: no switcher then).
        const orgIds = session.loginEntryCode && session.loginOrgId ? [session.loginOrgId] : user.organizationIds;
        const wanted = orgHeader(req, language);
        if (wanted !== undefined && !orgIds.includes(wanted)) {
          throw new ApiError(ErrorCode.orgNotAllowed, msg(language, 'access.orgNotAllowed'), {}, 403);
        }
        const fallback = session.loginOrgId && orgIds.includes(session.loginOrgId) ? session.loginOrgId : (orgIds[0] ?? null);
        return {
          ...base,
          user: { id: user.id, username: user.username, realName: user.realName, sysOrgUser: user.sysOrgUser },
          orgId: wanted ?? fallback,
          orgIds,
          warehouseIds: user.warehouseIds.length ? user.warehouseIds : null,
          via: 'session',
          sessionId: session.id,
        };
      }

      for (const strategy of strategies) {
        if (first.includes(strategy)) continue;
        const who = await strategy.authenticate(token, { req, sequelize: deps.sequelize });
        if (who) return asToken(who);
      }
      throw invalidSession(language);
    },

    async authorize(ctx: RequestContext, code: string): Promise<void> {
      const denied = () => new ApiError(ErrorCode.noPermission, msg(ctx.language, 'access.noPermission', { code }), {}, 403);
      if (!ctx.user || ctx.orgId === null || ctx.via === 'public') throw denied();
      const subject = ctx.via === 'org-token' ? tokenSubject(ctx.orgId) : userSubject(ctx.user.id);
      if (ctx.scope && !ctx.scope.allows(code)) throw denied();
      if (!(await deps.policies.can(subject, ctx.orgId, code))) throw denied();
    },
  };
}

/** The Casbin subject of a context (for listing its codes). */
export function subjectOf(ctx: RequestContext): string | null {
  if (!ctx.user || ctx.orgId === null) return null;
  return ctx.via === 'org-token' ? tokenSubject(ctx.orgId) : userSubject(ctx.user.id);
}
