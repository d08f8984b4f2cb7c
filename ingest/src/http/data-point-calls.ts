/**
 * SPEC §7 data-points calls over the telemetry store, as CallDefs for the server's one
 * registry (a plugin adds them with ctx.addCall; same guard, tenancy and envelope):
 *
 *   /data-points/beacon/list  { page, limit, mac?, gatewayMac?, time?: [from, to], sortByTime? }
 *   /data-points/gps/list     { page, limit, sn?, dataType?, time?: [from, to], sortByTime? }
 *   /data-points/beacon       { mac }  → the device's newest point (the "base" call)
 *   /data-points/gps          { sn }
 *
 * Rows come back with `time` as an ISO string (GPS rows also as `ts`, the SPEC name);
 * `sortByTime: true` is oldest first, default newest first. Filtering by gatewayMac or
 * dataType applies within the page window the store returns for the device and time range.
 */
import { fieldLabelKey } from '@rti/metadata';
import { ApiError, ErrorCode, readPaging, tKey, type CallDef, type RequestContext } from '@rti/server/plugin-api';
import { WRONG, mac as canonicalMac } from '../decoders/fields';
import { isGpsSn } from '../decoders/gps-report';
import type { SeriesRow } from '../store/series';
import { MAX_PAGE_SIZE, type TelemetryStore } from '../store/telemetry-store';

const fieldError = (field: string, expected: string) =>
  new ApiError(
    ErrorCode.validation,
    'server.validation.type',
    { field: tKey(fieldLabelKey({ name: field })), expected: tKey(`server.validation.expected.${expected}`) },
    400,
  );

function orgOf(ctx: RequestContext): number {
  if (ctx.orgId === null) throw new ApiError(ErrorCode.orgNotAllowed, 'server.errors.10007', {}, 403);
  return ctx.orgId;
}

function epoch(v: unknown, field: string): number | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw fieldError(field, 'range');
  return ms;
}

function range(body: Record<string, unknown>): { from?: number; to?: number } {
  const t = body.time;
  if (t === undefined || t === null) return { from: epoch(body.startTime, 'startTime'), to: epoch(body.endTime, 'endTime') };
  if (!Array.isArray(t) || t.length !== 2) throw fieldError('time', 'range');
  return { from: epoch(t[0], 'time'), to: epoch(t[1], 'time') };
}

/** page and limit bounded like the generated lists' (page 1–1,000,000; limit 1–1,000): 1e300, 2.5 or −1 is a 10001 */
function pageOf(body: Record<string, unknown>): { page: number; limit: number } {
  const { page, limit } = readPaging(body, { maxLimit: MAX_PAGE_SIZE });
  return { page, limit };
}

function present(series: string, r: SeriesRow): Record<string, unknown> {
  const out: Record<string, unknown> = { ...r, time: new Date(r.time).toISOString() };
  delete out.org;
  if (series === 'gps') out.ts = out.time;
  return out;
}

export function dataPointCalls(store: TelemetryStore): CallDef[] {
  const calls: CallDef[] = [];
  for (const [series, key] of [
    ['beacon', 'mac'],
    ['gps', 'sn'],
  ] as const) {
    const deviceKey = (v: unknown): string | undefined => {
      if (v === undefined || v === null || v === '') return undefined;
      if (key === 'mac') {
        const m = canonicalMac(v);
        if (m === WRONG) throw fieldError('mac', 'string');
        return m;
      }
      if (!isGpsSn(v)) throw fieldError('sn', 'string');
      return v;
    };
    calls.push({
      path: `/data-points/${series}/list`,
      async handler({ body, ctx }) {
        const org = orgOf(ctx);
        const k = deviceKey(body[key]);
        const { from, to } = range(body);
        const page = await store.query({ series, org, key: k, from, to, ...pageOf(body), order: body.sortByTime === true ? 'asc' : 'desc' });
        let list = page.list;
        if (series === 'beacon' && body.gatewayMac) {
          const gw = canonicalMac(body.gatewayMac);
          if (gw === WRONG) throw fieldError('gatewayMac', 'string');
          list = list.filter((r) => r.gatewayMac === gw);
        }
        if (series === 'gps' && body.dataType !== undefined && body.dataType !== null) list = list.filter((r) => r.dataType === Number(body.dataType));
        return { list: list.map((r) => present(series, r)), total: page.total };
      },
    });
    calls.push({
      path: `/data-points/${series}`,
      async handler({ body, ctx }) {
        const k = deviceKey(body[key]);
        if (!k) throw new ApiError(ErrorCode.validation, 'server.validation.required', { field: tKey(fieldLabelKey({ name: key })) });
        const [row] = await store.latest(series, orgOf(ctx), [k]);
        if (!row) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
        return present(series, row);
      },
    });
  }
  return calls;
}
