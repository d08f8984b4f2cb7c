/**
 * Webhooks (docs/API.md "Webhooks"): an organisation registers URLs for events; each event of
 * the organisation becomes one delivery row per matching subscription in `open_api_webhook_delivery`,
 * and a worker on every instance claims due rows (a conditional UPDATE writing its claim token,
 * so two instances never send the same row at once), POSTs them signed with the subscription's
 * secret (HMAC-SHA256), and records the answer: delivered, or retried with back-off until it
 * gives up. Nothing here runs on the request or ingest path but the enqueue: inside a write's
 * transaction (one INSERT, only when someone subscribed), or into a memory buffer flushed by
 * the worker (events raised outside a transaction).
 *
 * Events are generated from the metadata: `<resource>.created|updated|deleted` for writes
 * through the scoped repository, `<resource>.<step>` for workflow steps, and the live events a
 * plugin raises (`live.<type>`), plus `ping` (the screen's test delivery).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { DataTypes, Op, QueryTypes, type Model, type ModelStatic, type Sequelize, type Transaction } from 'sequelize';
import { allowPrivateTargets, guardedLookup, isPrivateAddress } from './ssrf';

export const WEBHOOK_TABLE = 'open_api_webhook';
export const DELIVERY_TABLE = 'open_api_webhook_delivery';
export const SIGNATURE_HEADER = 'X-RTI-Signature';

export const DeliveryStatus = { pending: 10, delivered: 20, failed: 30 } as const;

/** attempts before a delivery is given up (the first included) */
export const MAX_ATTEMPTS = 8;
const retryBaseMs = (): number => {
  const n = Number(process.env.WEBHOOK_RETRY_BASE_MS);
  return Number.isFinite(n) && n >= 0 ? n : 10_000;
};
/** back-off before attempt n + 1: base · 2^(n−1), at most an hour, ±20 % jitter */
export function backoffMs(attempts: number, base = retryBaseMs()): number {
  const ms = Math.min(3_600_000, base * 2 ** Math.max(0, attempts - 1));
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}
const TIMEOUT_MS = 10_000;
const CLAIM_MS = 60_000;
const BATCH = 500;
const IN_FLIGHT = 100;
/** live events waiting for the worker's next turn, at most */
const BUFFER_MAX = 20_000;

export const webhookColumns = {
  id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
  orgId: { type: DataTypes.INTEGER, allowNull: false, field: 'org_id' },
  url: { type: DataTypes.STRING(2000), allowNull: false },
  /** JSON list of event names ('*' every event, '<resource>.*' every event of a resource) */
  events: { type: DataTypes.TEXT, allowNull: false },
  description: { type: DataTypes.STRING(255), allowNull: true },
  /** signs the deliveries (shown once at creation); kept as written, as HMAC needs it */
  secret: { type: DataTypes.STRING(100), allowNull: false },
  active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
  createdBy: { type: DataTypes.INTEGER, allowNull: true, field: 'created_by' },
  createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
  updatedAt: { type: DataTypes.DATE, allowNull: false, field: 'updated_at' },
};

export const deliveryColumns = {
  id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
  orgId: { type: DataTypes.INTEGER, allowNull: false, field: 'org_id' },
  webhookId: { type: DataTypes.INTEGER, allowNull: false, field: 'webhook_id' },
  event: { type: DataTypes.STRING(120), allowNull: false },
  payload: { type: DataTypes.TEXT, allowNull: false },
  status: { type: DataTypes.INTEGER, allowNull: false },
  attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  nextAt: { type: DataTypes.BIGINT, allowNull: false, field: 'next_at' },
  claimToken: { type: DataTypes.STRING(32), allowNull: true, field: 'claim_token' },
  claimUntil: { type: DataTypes.BIGINT, allowNull: true, field: 'claim_until' },
  lastStatus: { type: DataTypes.INTEGER, allowNull: true, field: 'last_status' },
  lastError: { type: DataTypes.STRING(500), allowNull: true, field: 'last_error' },
  occurredAt: { type: DataTypes.BIGINT, allowNull: false, field: 'occurred_at' },
  deliveredAt: { type: DataTypes.BIGINT, allowNull: true, field: 'delivered_at' },
};

export interface WebhookRow {
  id: number;
  orgId: number;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  active: boolean;
  createdBy: number | null;
  createdAt: Date;
  updatedAt: Date;
}
export interface DeliveryRow {
  id: number;
  orgId: number;
  webhookId: number;
  event: string;
  payload: string;
  status: number;
  attempts: number;
  nextAt: number;
  claimToken: string | null;
  claimUntil: number | null;
  lastStatus: number | null;
  lastError: string | null;
  occurredAt: number;
  deliveredAt: number | null;
}

type M<R extends object> = ModelStatic<Model<R, Partial<R>>>;
export function webhookModels(sequelize: Sequelize) {
  const hook = (sequelize.models.OpenApiWebhook ??
    sequelize.define('OpenApiWebhook', webhookColumns, { tableName: WEBHOOK_TABLE, freezeTableName: true, timestamps: true })) as M<WebhookRow>;
  const delivery = (sequelize.models.OpenApiWebhookDelivery ??
    sequelize.define('OpenApiWebhookDelivery', deliveryColumns, { tableName: DELIVERY_TABLE, freezeTableName: true, timestamps: false })) as M<DeliveryRow>;
  return { hook, delivery };
}

/** One event of an organisation: its name and what it says (a row, a live event's data). */
export interface WebhookEvent {
  orgId: number;
  event: string;
  data: unknown;
  at?: number;
}

/** The signature header of a body: `t=<ms>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function sign(secret: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

const matches = (events: string[], event: string): boolean =>
  events.some((e) => e === '*' || e === event || (e.endsWith('.*') && event.startsWith(e.slice(0, -1))));

export interface Subscription {
  id: number;
  events: string[];
}

export class WebhookQueue {
  readonly m: ReturnType<typeof webhookModels>;
  private subs = new Map<number, Subscription[]>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  private buffer: WebhookEvent[] = [];
  private dropped = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private running: Promise<void> | null = null;
  private readonly token = randomBytes(8).toString('hex');
  private claims = 0;
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup as never });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 64, lookup: guardedLookup as never });
  /** delivered rows since start (bench, tests) */
  delivered = 0;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly log: (m: string, e?: unknown) => void,
    private readonly opts: { pollMs?: number; reloadMs?: number } = {},
  ) {
    this.m = webhookModels(sequelize);
  }

  /** Active subscriptions, per organisation, read again every reloadMs (another instance's changes) and after this one's. */
  async subscriptions(orgId: number): Promise<Subscription[]> {
    if (Date.now() - this.loadedAt > (this.opts.reloadMs ?? 2000)) await this.reload();
    return this.subs.get(orgId) ?? [];
  }

  /** whether anybody listens in the organisation (cached: no query on the write path) */
  listening(orgId: number): boolean {
    if (Date.now() - this.loadedAt > (this.opts.reloadMs ?? 2000)) void this.reload().catch((err) => this.log('webhook subscriptions not read', err));
    return this.subs.has(orgId);
  }

  reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const rows = (await this.m.hook.findAll({ where: { active: true }, attributes: ['id', 'orgId', 'events'], raw: true })) as unknown as WebhookRow[];
        const next = new Map<number, Subscription[]>();
        for (const r of rows) {
          const list = next.get(r.orgId) ?? [];
          list.push({ id: r.id, events: JSON.parse(r.events) as string[] });
          next.set(r.orgId, list);
        }
        this.subs = next;
        this.loadedAt = Date.now();
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  private rowsFor(events: WebhookEvent[], subs: (orgId: number) => Subscription[], now: number): Array<Partial<DeliveryRow>> {
    const rows: Array<Partial<DeliveryRow>> = [];
    for (const e of events) {
      let payload: string | undefined;
      for (const s of subs(e.orgId)) {
        if (!matches(s.events, e.event)) continue;
        payload ??= JSON.stringify(e.data ?? null);
        rows.push({
          orgId: e.orgId,
          webhookId: s.id,
          event: e.event,
          payload,
          status: DeliveryStatus.pending,
          attempts: 0,
          nextAt: now,
          occurredAt: e.at ?? now,
        });
      }
    }
    return rows;
  }

  /** Queues events inside a write's transaction (delivered only if it commits); nothing when nobody listens. */
  async enqueue(events: WebhookEvent[], transaction?: Transaction): Promise<number> {
    const now = Date.now();
    const wanted = events.filter((e) => this.subs.has(e.orgId));
    if (!wanted.length) return 0;
    const rows = this.rowsFor(wanted, (org) => this.subs.get(org) ?? [], now);
    for (let i = 0; i < rows.length; i += 500) await this.m.delivery.bulkCreate(rows.slice(i, i + 500), { transaction });
    if (rows.length) this.kick();
    return rows.length;
  }

  /** Events raised outside a transaction (live events): buffered here, written by the worker's next turn. */
  emit(event: WebhookEvent): void {
    if (!this.listening(event.orgId)) return;
    // bounded: past BUFFER_MAX (the database unreachable for a while) new events are dropped and counted
    if (this.buffer.length >= BUFFER_MAX) {
      this.dropped++;
      return;
    }
    this.buffer.push({ ...event, at: event.at ?? Date.now() });
    this.kick();
  }

  private async flush(): Promise<void> {
    if (this.dropped) {
      this.log(`webhook buffer full: ${this.dropped} live event(s) dropped`);
      this.dropped = 0;
    }
    if (!this.buffer.length) return;
    const events = this.buffer;
    this.buffer = [];
    await this.enqueue(events);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(50);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    await this.flush().catch(() => undefined);
    this.http.destroy();
    this.https.destroy();
  }

  private kick(): void {
    if (!this.stopped && !this.running) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.running) return;
      this.running = this.turn()
        .then((full) => this.schedule(full ? 0 : (this.opts.pollMs ?? 500)))
        .catch((err) => {
          this.log('webhook worker turn failed', err);
          this.schedule(this.opts.pollMs ?? 500);
        })
        .finally(() => (this.running = null));
    }, ms);
    this.timer.unref?.();
  }

  /** One turn: flush the buffer, claim a batch of due rows, deliver them, record the answers. Answers whether the batch was full. */
  async turn(): Promise<boolean> {
    if (Date.now() - this.loadedAt > (this.opts.reloadMs ?? 2000)) await this.reload();
    await this.flush();
    const now = Date.now();
    const dueWhere = { status: DeliveryStatus.pending, nextAt: { [Op.lte]: now }, [Op.or]: [{ claimUntil: null }, { claimUntil: { [Op.lt]: now } }] };
    const ids = (
      (await this.m.delivery.findAll({ where: dueWhere, attributes: ['id'], order: [['id', 'ASC']], limit: BATCH, raw: true })) as unknown as Array<{
        id: number;
      }>
    ).map((r) => r.id);
    if (!ids.length) return false;
    const claim = `${this.token}${(++this.claims).toString(36)}`.slice(0, 32);
    await this.m.delivery.update({ claimToken: claim, claimUntil: now + CLAIM_MS }, { where: { ...dueWhere, id: { [Op.in]: ids } } });
    const q = this.sequelize.getQueryInterface();
    const col = (c: string) => q.quoteIdentifier(c);
    const rows = await this.sequelize.query<DeliveryRow & { url: string; secret: string }>(
      `SELECT d.${col('id')} AS id, d.${col('event')} AS event, d.${col('payload')} AS payload, d.${col('attempts')} AS attempts, d.${col('occurred_at')} AS occurredAt, d.${col('org_id')} AS orgId, w.${col('url')} AS url, w.${col('secret')} AS secret
       FROM ${col(DELIVERY_TABLE)} d JOIN ${col(WEBHOOK_TABLE)} w ON w.${col('id')} = d.${col('webhook_id')}
       WHERE d.${col('claim_token')} = :claim`,
      { type: QueryTypes.SELECT, replacements: { claim } },
    );
    const results: Array<{ id: number; attempts: number; ok: boolean; status: number | null; error: string | null }> = [];
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++];
        const outcome = await this.send(row).catch((err: Error) => ({ ok: false, status: null, error: String(err?.message ?? err).slice(0, 500) }));
        results.push({ id: row.id, attempts: Number(row.attempts) + 1, ...outcome });
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, rows.length) }, worker));
    await this.record(results, claim);
    return ids.length === BATCH;
  }

  private async record(
    results: Array<{ id: number; attempts: number; ok: boolean; status: number | null; error: string | null }>,
    claim: string,
  ): Promise<void> {
    const now = Date.now();
    const byStatus = new Map<number, number[]>();
    for (const r of results) if (r.ok) byStatus.set(r.status ?? 200, [...(byStatus.get(r.status ?? 200) ?? []), r.id]);
    for (const [status, ids] of byStatus) {
      await this.m.delivery.update(
        {
          status: DeliveryStatus.delivered,
          attempts: this.sequelize.literal('attempts + 1') as unknown as number,
          lastStatus: status,
          lastError: null,
          deliveredAt: now,
          claimToken: null,
          claimUntil: null,
        },
        { where: { id: { [Op.in]: ids }, claimToken: claim } },
      );
      this.delivered += ids.length;
    }
    for (const r of results) {
      if (r.ok) continue;
      const gaveUp = r.attempts >= MAX_ATTEMPTS;
      await this.m.delivery.update(
        {
          status: gaveUp ? DeliveryStatus.failed : DeliveryStatus.pending,
          attempts: r.attempts,
          lastStatus: r.status,
          lastError: r.error,
          nextAt: now + backoffMs(r.attempts),
          claimToken: null,
          claimUntil: null,
        },
        { where: { id: r.id, claimToken: claim } },
      );
    }
  }

  /** POSTs one delivery; 2xx is delivered, anything else (or no answer within 10 s) a failure. */
  send(row: {
    id: number;
    event: string;
    payload: string;
    occurredAt: number | string;
    url: string;
    secret: string;
  }): Promise<{ ok: boolean; status: number | null; error: string | null }> {
    const url = new URL(row.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // an address written in the URL skips the socket's lookup: judged here
    if (isIP(host) && !allowPrivateTargets() && isPrivateAddress(host))
      return Promise.resolve({ ok: false, status: null, error: 'target is a private or loopback address' });
    const t = Date.now();
    const body = `{"id":${row.id},"event":${JSON.stringify(row.event)},"occurredAt":${JSON.stringify(new Date(Number(row.occurredAt)).toISOString())},"data":${row.payload}}`;
    const https = url.protocol === 'https:';
    return new Promise((resolve) => {
      const req = (https ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: https ? this.https : this.http,
          timeout: TIMEOUT_MS,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            'User-Agent': 'RTI-Webhooks/1',
            'X-RTI-Event': row.event,
            'X-RTI-Delivery': String(row.id),
            'X-RTI-Timestamp': String(t),
            [SIGNATURE_HEADER]: sign(row.secret, body, t),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            resolve(status >= 200 && status < 300 ? { ok: true, status, error: null } : { ok: false, status, error: `HTTP ${status}` });
          });
          res.on('error', (err) => resolve({ ok: false, status: res.statusCode ?? null, error: err.message.slice(0, 500) }));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
      req.on('error', (err) => resolve({ ok: false, status: null, error: err.message.slice(0, 500) }));
      req.end(body);
    });
  }

  /** Puts a delivery of the organisation back in the queue, due now (another organisation's id: false). */
  async resend(orgId: number, id: number): Promise<boolean> {
    const [n] = await this.m.delivery.update(
      { status: DeliveryStatus.pending, nextAt: Date.now(), claimToken: null, claimUntil: null },
      { where: { id, orgId } },
    );
    if (n) this.kick();
    return n > 0;
  }

  /** Delivered and given-up rows older than `days` (the queue's own housekeeping). */
  sweep(days = 30): Promise<number> {
    return this.m.delivery.destroy({
      where: { status: { [Op.in]: [DeliveryStatus.delivered, DeliveryStatus.failed] }, occurredAt: { [Op.lt]: Date.now() - days * 86_400_000 } },
    });
  }
}
