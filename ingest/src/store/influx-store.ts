/**
 * InfluxDB over the v1 HTTP API: line protocol to POST /write (precision ms), InfluxQL to
 * /query (epoch=ms). InfluxDB 1.x serves these natively, 2.x and 3.x as their v1
 * compatibility endpoints (database = bucket via DBRP mapping, credentials as a token), so one
 * adapter covers all three; it is tested against InfluxDB 1.6.7.
 *
 * org, the device key and the schema's tags are tags; everything else is a field. A point is
 * identified by series + tags + time, so replaying a journal segment overwrites instead of
 * duplicating — replay is idempotent without a stored mark.
 */
import { allSeries, type SeriesRow, type SeriesSchema } from './series';
import { appendLine } from './line-protocol';
import { keysOf, pageOf, type PointPage, type PointQuery, type SeriesBatch, type TelemetryStore } from './telemetry-store';

export interface InfluxStoreOptions {
  /** e.g. http://127.0.0.1:8086 */
  url: string;
  database: string;
  /** InfluxDB 1.x user (sent as u/p); omit when auth is off */
  username?: string;
  password?: string;
  /** InfluxDB 2.x/3.x token for the v1 endpoints (Authorization: Token …) */
  token?: string;
  /** create the database on init (1.x only; 2.x/3.x buckets are provisioned by the operator) */
  createDatabase?: boolean;
  /** retention policy for writes and queries; default = the database's default */
  retentionPolicy?: string;
  timeoutMs?: number;
  series?: readonly SeriesSchema[];
}

interface InfluxSeries {
  name: string;
  tags?: Record<string, string>;
  columns: string[];
  values: unknown[][];
}

export class InfluxTelemetryStore implements TelemetryStore {
  readonly engine = 'influxdb';
  private readonly schemas = new Map<string, SeriesSchema>();

  constructor(private readonly opts: InfluxStoreOptions) {
    for (const s of opts.series ?? allSeries) this.schemas.set(s.name, s);
  }

  async init(): Promise<void> {
    if (this.opts.createDatabase !== false) await this.influxql(`CREATE DATABASE ${ident(this.opts.database)}`, 'server');
  }

  async write(batches: readonly SeriesBatch[]): Promise<void> {
    const lines: string[] = [];
    for (const b of batches) {
      const schema = this.schema(b.series);
      for (const row of b.rows) appendLine(lines, schema, row);
    }
    if (lines.length === 0) return;
    const params = new URLSearchParams({ db: this.opts.database, precision: 'ms' });
    if (this.opts.retentionPolicy) params.set('rp', this.opts.retentionPolicy);
    const res = await this.fetch(`/write?${this.auth(params)}`, {
      method: 'POST',
      body: lines.join('\n'),
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
    if (res.status !== 204) throw new InfluxError(`write failed: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`, res.status);
  }

  async appliedMark(): Promise<number> {
    return 0;
  }

  async query(q: PointQuery): Promise<PointPage> {
    const schema = this.schema(q.series);
    const where = this.where(schema, q.org, keysOf(q), q.from, q.to);
    if (where === null) return { list: [], total: 0 };
    const { limit, offset } = pageOf(q);
    const from = this.from(schema);
    const order = q.order === 'asc' ? 'ASC' : 'DESC';
    const [page, count] = await this.influxql([
      `SELECT * FROM ${from} WHERE ${where} ORDER BY time ${order} LIMIT ${limit} OFFSET ${offset}`,
      `SELECT COUNT(${ident(schema.countField)}) FROM ${from} WHERE ${where}`,
    ]);
    const list = page[0] ? rowsOf(schema, page[0], q.org) : [];
    return { list, total: Number(count[0]?.values[0]?.[1] ?? 0) };
  }

  async latest(series: string, org: number, keys: readonly string[]): Promise<SeriesRow[]> {
    if (keys.length === 0) return [];
    const schema = this.schema(series);
    const [res] = await this.influxql([
      `SELECT * FROM ${this.from(schema)} WHERE ${this.where(schema, org, keys)} GROUP BY ${ident(schema.key)} ORDER BY time DESC LIMIT 1`,
    ]);
    return res.flatMap((s) => rowsOf(schema, s, org));
  }

  async ping(): Promise<boolean> {
    try {
      const res = await this.fetch('/ping', { method: 'GET' });
      return res.status === 204;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {}

  private schema(series: string): SeriesSchema {
    const s = this.schemas.get(series);
    if (!s) throw new Error(`telemetry: unknown series "${series}"`);
    return s;
  }

  private from(schema: SeriesSchema): string {
    const rp = this.opts.retentionPolicy ? ident(this.opts.retentionPolicy) : '';
    return `${ident(this.opts.database)}.${rp}.${ident(schema.name)}`;
  }

  private where(schema: SeriesSchema, org: number, keys?: readonly string[], from?: number, to?: number): string | null {
    const parts = [`"org" = '${Math.trunc(org)}'`];
    if (keys) {
      if (keys.length === 0) return null;
      parts.push(`(${keys.map((k) => `${ident(schema.key)} = ${literal(k)}`).join(' OR ')})`);
    }
    if (from !== undefined) parts.push(`time >= ${Math.trunc(from)}ms`);
    if (to !== undefined) parts.push(`time <= ${Math.trunc(to)}ms`);
    return parts.join(' AND ');
  }

  /**
   * Runs InfluxQL statements; returns each statement's series (throws on any error). Always a
   * form POST: a latest() over many devices would overflow a GET URL, and 1.x, 2.x and 3.x
   * accept SELECT by POST as well.
   */
  private async influxql(q: string | string[], scope: 'database' | 'server' = 'database'): Promise<InfluxSeries[][]> {
    const statements = Array.isArray(q) ? q : [q];
    const params = new URLSearchParams({ q: statements.join(';'), epoch: 'ms' });
    if (scope === 'database') params.set('db', this.opts.database);
    const res = await this.fetch('/query', { method: 'POST', body: this.auth(params), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    const body = (await res.json().catch(() => null)) as { results?: Array<{ series?: InfluxSeries[]; error?: string }>; error?: string } | null;
    if (res.status !== 200 || !body?.results) throw new InfluxError(`query failed: HTTP ${res.status} ${body?.error ?? ''}`, res.status);
    const err = body.results.find((r) => r.error);
    if (err) throw new InfluxError(`query failed: ${err.error}`, 400);
    return body.results.map((r) => r.series ?? []);
  }

  private auth(params: URLSearchParams): string {
    if (this.opts.username) {
      params.set('u', this.opts.username);
      params.set('p', this.opts.password ?? '');
    }
    return params.toString();
  }

  private async fetch(pathAndQuery: string, init: RequestInit): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
    if (this.opts.token) headers.Authorization = `Token ${this.opts.token}`;
    return fetch(`${this.opts.url.replace(/\/$/, '')}${pathAndQuery}`, { ...init, headers, signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10000) });
  }
}

export class InfluxError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(`influxdb: ${message}`);
  }
}

function ident(name: string): string {
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function literal(v: string): string {
  return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function rowsOf(schema: SeriesSchema, s: InfluxSeries, org: number): SeriesRow[] {
  const out: SeriesRow[] = [];
  for (const values of s.values) {
    const row: SeriesRow = { org, time: 0 };
    for (let i = 0; i < s.columns.length; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      row[s.columns[i]] = v;
    }
    if (s.tags) for (const [k, v] of Object.entries(s.tags)) if (v !== '') row[k] = v;
    row.org = org;
    for (const c of schema.columns) if (c.type !== 'string' && typeof row[c.name] === 'string') row[c.name] = Number(row[c.name]);
    out.push(row);
  }
  return out;
}
