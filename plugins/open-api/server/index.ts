/**
 * Open API (SPEC §2 /open-api, §7 Organisation token): one API token per organisation.
 * The token authenticates calls for its organisation only, with the organisation's whole
 * permission set, through a token strategy registered with ctx.auth.strategy (this server's guard only).
 */
import { ApiError, ErrorCode, definePlugin, type RequestContext } from '@rti/server/plugin-api';
import { OrgTokenStore, TOKEN_TABLE, tokenColumns } from './token-store';

/** Only people manage tokens: a token cannot refresh or delete itself. */
function sessionOrg(ctx: RequestContext, t: (key: string) => string): number {
  if (ctx.via !== 'session' || ctx.orgId === null) throw new ApiError(ErrorCode.noPermission, t('server.errors.10005'), {}, 403);
  return ctx.orgId;
}

export default definePlugin({
  id: 'open-api',
  server(ctx) {
    ctx.addMigration({
      name: '2026-11-22-open-api-org-token',
      async up({ queryInterface }) {
        await queryInterface.createTable(TOKEN_TABLE, tokenColumns);
      },
      async down({ queryInterface }) {
        await queryInterface.dropTable(TOKEN_TABLE);
      },
    });

    // one store per server: its strategy answers only this server's guard
    const store = new OrgTokenStore(ctx.db);
    ctx.auth.strategy({
      name: 'open-api-org-token',
      async authenticate(token) {
        const orgId = await store.resolve(token);
        return orgId === null ? null : { orgId, label: `org-token:${orgId}` };
      },
    });

    ctx.addCall({
      path: '/organization-token/create',
      async handler({ ctx: call }) {
        const orgId = sessionOrg(call, (k) => ctx.t(call.language, k));
        const issued = await store.issue(orgId, call.user?.id ?? null);
        // The only answer that carries the token in clear; later reads show `masked`.
        return issued;
      },
    });
    ctx.addCall({
      path: '/organization-token',
      handler: ({ ctx: call }) => store.current(sessionOrg(call, (k) => ctx.t(call.language, k))),
    });
    ctx.addCall({
      path: '/organization-token/delete',
      async handler({ ctx: call }) {
        return { deleted: (await store.revoke(sessionOrg(call, (k) => ctx.t(call.language, k)))) ? 1 : 0 };
      },
    });
  },
});
