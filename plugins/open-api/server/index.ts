/**
 * Open API (SPEC §2 /open-api, §7 Organisation token; docs/API.md "REST API", "API tokens",
 * "Webhooks"):
 *
 * - the organisation's single API token (token-store.ts), with the organisation's whole set;
 * - named tokens (named-tokens.ts), each limited to some resources and/or reading, with expiry,
 *   last use, revocation and a per-minute rate limit counted in the database;
 * - the REST API `/rest/v1/<resource>` (rest.ts) over the resources' own calls, its OpenAPI 3
 *   document `/rest/v1/openapi.json` and a docs page `/rest/v1/docs` (openapi.ts);
 * - webhooks (webhooks.ts): subscriptions, signed deliveries queued in the database and sent by
 *   a worker on every instance, with retries and back-off; the screen lists and resends them.
 *
 * Tokens authenticate through strategies registered with ctx.auth.strategy (this server's guard
 * only); managing tokens and webhooks is for signed-in people (a token cannot mint tokens).
 */
import { randomBytes } from 'node:crypto';
import { apiCode, resourceLabelKey, resourceTransitions } from '@rti/metadata';
import { ApiError, ErrorCode, definePlugin, invalid, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { NAMED_PREFIX, NAMED_TOKEN_TABLE, NamedTokenStore, RATE_TABLE, ScopeIndex, defaultRate, namedTokenColumns, rateColumns } from './named-tokens';
import { openApiDocument, docsPage } from './openapi';
import { REST_PREFIX, restHandler } from './rest';
import { checkTargetUrl } from './ssrf';
import { OrgTokenStore, TOKEN_PREFIX, TOKEN_TABLE, tokenColumns } from './token-store';
import { DELIVERY_TABLE, DeliveryStatus, WEBHOOK_TABLE, WebhookQueue, deliveryColumns, webhookColumns, type DeliveryRow, type WebhookRow } from './webhooks';

/** Only people manage tokens and webhooks: a token cannot refresh or delete itself. */
function sessionOrg(ctx: RequestContext, t: (key: string) => string): number {
  if (ctx.via !== 'session' || ctx.orgId === null) throw new ApiError(ErrorCode.noPermission, t('server.errors.10005'), {}, 403);
  return ctx.orgId;
}

/** Live events other plugins raise (telemetry's alerts, in/out passes …), by their own type names. */
export const LIVE_EVENTS = ['alert', 'alert-cleared', 'alert-processed', 'inout', 'gps-config'] as const;

/** The event catalogue: every resource's writes and steps, the live events, and ping. */
export function eventCatalogue(ctx: Pick<PluginServerContext, 'metadata'>): Array<{ event: string; resource?: string; kind: string }> {
  const out: Array<{ event: string; resource?: string; kind: string }> = [];
  for (const res of Object.values(ctx.metadata.resources)) {
    for (const kind of ['created', 'updated', 'deleted']) out.push({ event: `${res.name}.${kind}`, resource: res.name, kind });
    for (const step of resourceTransitions(res)) out.push({ event: `${res.name}.${step.name}`, resource: res.name, kind: step.name });
  }
  for (const type of LIVE_EVENTS) out.push({ event: `live.${type}`, kind: type });
  out.push({ event: 'ping', kind: 'ping' });
  return out;
}

export default definePlugin({
  id: 'open-api',
  ownTables: 'its organisation and named API tokens and the webhook delivery queue',
  optionalDependsOn: ['telemetry'],
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
    ctx.addMigration({
      name: '2026-11-27-open-api-named-tokens-webhooks',
      async up({ queryInterface }) {
        const snake = (cols: object) =>
          Object.fromEntries(Object.entries(cols as Record<string, { field?: string }>).map(([k, v]) => [v.field ?? k, { ...v, field: undefined }]));
        await queryInterface.createTable(NAMED_TOKEN_TABLE, snake(namedTokenColumns) as never);
        await queryInterface.addIndex(NAMED_TOKEN_TABLE, ['org_id', 'id']);
        await queryInterface.createTable(RATE_TABLE, snake(rateColumns) as never);
        await queryInterface.createTable(WEBHOOK_TABLE, snake(webhookColumns) as never);
        await queryInterface.addIndex(WEBHOOK_TABLE, ['org_id', 'id']);
        await queryInterface.createTable(DELIVERY_TABLE, snake(deliveryColumns) as never);
        await queryInterface.addIndex(DELIVERY_TABLE, ['status', 'next_at']);
        await queryInterface.addIndex(DELIVERY_TABLE, ['org_id', 'id']);
        await queryInterface.addIndex(DELIVERY_TABLE, ['claim_token']);
      },
      async down({ queryInterface }) {
        for (const t of [DELIVERY_TABLE, WEBHOOK_TABLE, RATE_TABLE, NAMED_TOKEN_TABLE]) await queryInterface.dropTable(t);
      },
    });

    const tr = (call: RequestContext) => (k: string) => ctx.t(call.language, k);
    // one store per server: its strategy answers only this server's guard
    const store = new OrgTokenStore(ctx.db);
    const named = new NamedTokenStore(ctx.db);
    const scopes = new ScopeIndex(() => ctx.http.calls(), ctx.metadata);
    ctx.auth.strategy({
      name: 'open-api-org-token',
      prefix: TOKEN_PREFIX,
      async authenticate(token) {
        const orgId = await store.resolve(token);
        if (orgId === null) return null;
        await named.limit(`org:${orgId}`, defaultRate());
        return { orgId, label: `org-token:${orgId}` };
      },
    });
    ctx.auth.strategy({
      name: 'open-api-named-token',
      prefix: NAMED_PREFIX,
      async authenticate(token) {
        if (!token.startsWith(NAMED_PREFIX)) return null;
        const row = await named.resolve(token);
        if (!row) return null;
        await named.limit(`token:${row.id}`, row.ratePerMinute);
        const label = `api-token:${row.id}:${row.name}`.slice(0, 100);
        return { orgId: row.orgId, label, scope: scopes.scope(label, row.readOnly, row.resources) };
      },
    });
    ctx.jobs.every('rate-sweep', 10 * 60_000, () => named.sweep().then(() => undefined), { once: true });

    // the organisation token (SPEC §7)
    ctx.addCall({
      path: '/organization-token/create',
      async handler({ ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        // The only answer that carries the token in clear; later reads show `masked`.
        return store.issue(orgId, call.user?.id ?? null);
      },
    });
    ctx.addCall({ path: '/organization-token', handler: ({ ctx: call }) => store.current(sessionOrg(call, tr(call))) });
    ctx.addCall({
      path: '/organization-token/delete',
      async handler({ ctx: call }) {
        return { deleted: (await store.revoke(sessionOrg(call, tr(call)))) ? 1 : 0 };
      },
    });

    // named tokens
    const resourceNames = Object.keys(ctx.metadata.resources).sort();
    ctx.addCall({ path: '/open-api-token/list', handler: ({ ctx: call }) => named.list(sessionOrg(call, tr(call))) });
    ctx.addCall({
      path: '/open-api-token/create',
      input: {
        name: { type: 'string', required: true, maxLength: 100, label: 'open-api.fields.name' },
        readOnly: { type: 'bool', default: false, label: 'open-api.fields.readOnly' },
        resources: { type: 'enums', values: resourceNames, label: 'open-api.fields.resources' },
        expiresAt: { type: 'datetime', label: 'open-api.fields.expiresAt' },
        ratePerMinute: { type: 'int', min: 1, max: 100_000, label: 'open-api.fields.ratePerMinute' },
      },
      async handler({ input, ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        const expiresAt = input.expiresAt ? new Date(input.expiresAt as unknown as string) : null;
        if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalid('later', 'open-api.fields.expiresAt', { right: 'open-api.fields.now' });
        return named.issue(orgId, call.user?.id ?? null, {
          name: input.name,
          readOnly: input.readOnly,
          resources: input.resources?.length ? input.resources.map(String) : null,
          ratePerMinute: input.ratePerMinute,
          expiresAt,
        });
      },
    });
    ctx.addCall({
      path: '/open-api-token/revoke',
      input: { id: { type: 'int', required: true, min: 1 } },
      async handler({ input, ctx: call }) {
        if (!(await named.revoke(sessionOrg(call, tr(call)), input.id))) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
        return { revoked: 1 };
      },
    });

    // REST, its OpenAPI document and docs page (public: the schema is the product's, not an organisation's)
    let doc: string | null = null;
    const openapi = () => (doc ??= JSON.stringify(openApiDocument(ctx)));
    ctx.http.route(
      REST_PREFIX,
      restHandler({
        ctx,
        extra: {
          'openapi.json': (_req, res) => void res.type('application/json').send(openapi()),
          docs: (_req, res) => {
            res.setHeader('Content-Security-Policy', "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
            res.type('text/html').send(docsPage());
          },
        },
      }),
    );

    // webhooks
    const queue = new WebhookQueue(ctx.db, (m, e) => ctx.log(m, e), {
      pollMs: Number(process.env.WEBHOOK_POLL_MS) > 0 ? Number(process.env.WEBHOOK_POLL_MS) : 500,
    });
    const events = eventCatalogue(ctx);
    const eventNames = [...events.map((e) => e.event), '*', ...Object.keys(ctx.metadata.resources).map((r) => `${r}.*`)];
    for (const action of ['create', 'update', 'delete'] as const) {
      ctx.hooks.after(action, '*', async (e) => {
        const orgId = e.ctx.orgId ?? (e.row?.orgId as number | undefined);
        if (!orgId || !e.row || !queue.listening(orgId)) return;
        const kind = action === 'update' && e.step ? e.step.name : `${action}d`;
        await queue.enqueue([{ orgId, event: `${e.resource.name}.${kind}`, data: e.row }], e.transaction);
      });
    }
    // typed structurally: this plugin needs only this much of telemetry's service, when it is loaded
    const telemetry = (ctx.tryUse as (id: string) => unknown)('telemetry') as
      { onRaised?(fn: (e: { type: string; orgId: number; data: unknown }) => void): () => void } | undefined;
    const known = new Set<string>(LIVE_EVENTS);
    const stopLive = telemetry?.onRaised?.((e) => {
      if (known.has(e.type)) queue.emit({ orgId: e.orgId, event: `live.${e.type}`, data: e.data });
    });
    ctx.onReady(async () => {
      await queue.reload();
      if (process.env.WEBHOOK_WORKER !== 'off') queue.start();
    });
    ctx.onClose(async () => {
      stopLive?.();
      await named.stop();
      await queue.stop();
    });
    ctx.jobs.every('webhook-sweep', 60 * 60_000, () => queue.sweep().then(() => undefined), { once: true });

    const shown = (r: WebhookRow) => ({
      id: r.id,
      url: r.url,
      events: JSON.parse(r.events) as string[],
      description: r.description,
      active: Boolean(r.active),
      secret: `${r.secret.slice(0, 6)}…`,
      createdAt: new Date(r.createdAt).toISOString(),
    });
    const urlRefusal = async (url: string) => {
      const problem = await checkTargetUrl(url);
      if (!problem) return;
      throw new ApiError(ErrorCode.validation, `open-api.webhook.url.${problem}`, { field: 'URL' });
    };
    const own = async (orgId: number, id: number) => {
      const row = await queue.m.hook.findOne({ where: { id, orgId } });
      if (!row) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
      return row;
    };
    const webhookInput = {
      url: { type: 'string', maxLength: 2000, label: 'open-api.fields.url' },
      events: { type: 'enums', values: eventNames, label: 'open-api.fields.events', maxItems: 500 },
      description: { type: 'string', maxLength: 255, label: 'open-api.fields.description' },
    } as const;

    ctx.addCall({
      path: '/webhook/events',
      handler: ({ ctx: call }) =>
        events.map((e) => ({
          ...e,
          label: e.resource ? `${ctx.t(call.language, resourceLabelKey(ctx.metadata.resources[e.resource]))} · ${e.kind}` : e.event,
        })),
    });
    ctx.addCall({
      path: '/webhook/list',
      async handler({ ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        return ((await queue.m.hook.findAll({ where: { orgId }, order: [['id', 'DESC']], raw: true })) as unknown as WebhookRow[]).map(shown);
      },
    });
    ctx.addCall({
      path: '/webhook/create',
      input: { ...webhookInput, url: { ...webhookInput.url, required: true }, events: { ...webhookInput.events, required: true } },
      async handler({ input, ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        await urlRefusal(input.url);
        const secret = `whsec_${randomBytes(24).toString('base64url')}`;
        const row = await queue.m.hook.create({
          orgId,
          url: input.url,
          events: JSON.stringify(input.events.map(String)),
          description: input.description ?? null,
          secret,
          active: true,
          createdBy: call.user?.id || null,
        });
        await queue.reload();
        // the only answer that carries the secret in clear
        return { ...shown(row.get({ plain: true })), secret };
      },
    });
    ctx.addCall({
      path: '/webhook/update',
      input: { id: { type: 'int', required: true, min: 1 }, ...webhookInput, active: { type: 'bool', label: 'open-api.fields.active' } },
      async handler({ input, ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        const row = await own(orgId, input.id);
        if (input.url !== undefined) await urlRefusal(input.url);
        await row.update({
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.events !== undefined ? { events: JSON.stringify(input.events.map(String)) } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
        });
        await queue.reload();
        return shown(row.get({ plain: true }));
      },
    });
    ctx.addCall({
      path: '/webhook/delete',
      input: { id: { type: 'int', required: true, min: 1 } },
      async handler({ input, ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        const row = await own(orgId, input.id);
        await queue.m.delivery.destroy({ where: { orgId, webhookId: input.id } });
        await row.destroy();
        await queue.reload();
        return { deleted: 1 };
      },
    });
    ctx.addCall({
      path: '/webhook/ping',
      input: { id: { type: 'int', required: true, min: 1 } },
      async handler({ input, ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        await own(orgId, input.id);
        const [row] = await queue.m.delivery.bulkCreate([
          {
            orgId,
            webhookId: input.id,
            event: 'ping',
            payload: JSON.stringify({ webhookId: input.id }),
            status: DeliveryStatus.pending,
            attempts: 0,
            nextAt: Date.now(),
            occurredAt: Date.now(),
          },
        ]);
        return { id: row.get('id') };
      },
    });
    ctx.addCall({
      path: '/webhook/delivery/list',
      input: {
        webhookId: { type: 'int', min: 1, label: 'open-api.fields.webhook' },
        status: { type: 'enum', values: Object.values(DeliveryStatus), label: 'open-api.fields.status' },
      },
      paging: true,
      async handler({ input, ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        const where = {
          orgId,
          ...(input.webhookId ? { webhookId: input.webhookId } : {}),
          ...(input.status !== undefined ? { status: Number(input.status) } : {}),
        };
        const { rows, count } = await queue.m.delivery.findAndCountAll({
          where,
          order: [['id', 'DESC']],
          limit: input.limit,
          offset: input.offset,
          attributes: ['id', 'webhookId', 'event', 'status', 'attempts', 'nextAt', 'lastStatus', 'lastError', 'occurredAt', 'deliveredAt'],
          raw: true,
        });
        const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)).toISOString());
        return {
          list: (rows as unknown as DeliveryRow[]).map((r) => ({
            ...r,
            nextAt: iso(r.nextAt),
            occurredAt: iso(r.occurredAt),
            deliveredAt: iso(r.deliveredAt),
          })),
          total: count,
        };
      },
    });
    ctx.addCall({
      path: '/webhook/delivery/get',
      permission: apiCode('/webhook/delivery/list'),
      input: { id: { type: 'int', required: true, min: 1 } },
      async handler({ input, ctx: call }) {
        const orgId = sessionOrg(call, tr(call));
        const row = (await queue.m.delivery.findOne({ where: { id: input.id, orgId }, raw: true })) as unknown as DeliveryRow | null;
        if (!row) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
        const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)).toISOString());
        // what the receiver gets (the signature is made at each attempt, with its own time)
        return {
          id: row.id,
          webhookId: row.webhookId,
          event: row.event,
          status: row.status,
          attempts: row.attempts,
          lastStatus: row.lastStatus,
          lastError: row.lastError,
          occurredAt: iso(row.occurredAt),
          deliveredAt: iso(row.deliveredAt),
          body: { id: row.id, event: row.event, occurredAt: iso(row.occurredAt), data: JSON.parse(row.payload) as unknown },
        };
      },
    });
    ctx.addCall({
      path: '/webhook/delivery/resend',
      input: { id: { type: 'int', required: true, min: 1 } },
      async handler({ input, ctx: call }) {
        if (!(await queue.resend(sessionOrg(call, tr(call)), input.id))) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
        return { resent: 1 };
      },
    });
  },
});

export { WebhookQueue } from './webhooks';
