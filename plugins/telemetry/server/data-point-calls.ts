/**
 * SPEC §7 data-points calls over the TelemetryStore of the caller's organisation. The list and
 * base calls of beacons and GPS trackers are ingest's own CallDefs (`dataPointCalls`,
 * docs/TELEMETRY.md §11); this file adds what they lack:
 *   /data-points/{beacon|gps|gateway}/export  { mac | sn | beaconId | gpsId, time: [from, to] } → xlsx (≤ EXPORT_MAX rows)
 *   /data-points/gateway/list                 { mac | gatewayId, time, page, limit }: a gateway's heartbeat/connection log
 *   /data-points/gateway                      { mac }: its newest heartbeat
 * Newest first; times as ISO strings (`ts` for GPS, as SPEC §3 names it).
 */
import ExcelJS from 'exceljs';
import { beaconSeries, dataPointCalls, gatewaySeries, gpsSeries, type SeriesSchema, type TelemetryStore, type SeriesRow } from '@rti/ingest';
import { ApiError, ErrorCode, STREAMED, tKey, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import { canonicalMac } from './fleet-loader';

const EXPORT_MAX = 100_000;
const KINDS: Array<{ kind: string; schema: SeriesSchema; device: string; idField: string }> = [
  { kind: 'beacon', schema: beaconSeries, device: 'device-beacon', idField: 'beaconId' },
  { kind: 'gps', schema: gpsSeries, device: 'device-gps', idField: 'gpsId' },
  { kind: 'gateway', schema: gatewaySeries, device: 'device-slave-gateway', idField: 'gatewayId' },
];

function time(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Date.parse(String(v));
  if (!Number.isFinite(n)) throw new ApiError(ErrorCode.validation, 'validation.type', { name: tKey(`fields.${field}`), type: tKey('validation.types.datetime') }, 400);
  return n;
}

function present(k: (typeof KINDS)[number], r: SeriesRow): Record<string, unknown> {
  const { org: _org, time: t, ...rest } = r;
  const iso = new Date(t).toISOString();
  return k.kind === 'gps' ? { ...rest, ts: iso } : { ...rest, time: iso };
}

export function installDataPointCalls(ctx: PluginServerContext, store: () => TelemetryStore | undefined): void {
  const storeOrFail = (): TelemetryStore => {
    const s = store();
    if (!s) throw new ApiError(ErrorCode.internal, 'server.errors.10000', {}, 503);
    return s;
  };

  async function keyOf(k: (typeof KINDS)[number], body: Record<string, unknown>, call: RequestContext): Promise<string | undefined> {
    const idKey = k.schema.key;
    const raw = body[idKey] ?? (idKey === 'mac' ? undefined : body.sn);
    if (typeof raw === 'string' && raw) return idKey === 'mac' ? canonicalMac(raw) : raw;
    const id = body[k.idField];
    if (id !== undefined && id !== null && id !== '') {
      const row = await ctx.repo(k.device, call).get({ id });
      return idKey === 'mac' ? canonicalMac(row.mac) : String(row.sn);
    }
    if (idKey === 'mac' && typeof body.sn === 'string' && body.sn) {
      const found = await ctx.repo(k.device, call).list({ sn: body.sn, page: 1, limit: 1 });
      const row = found.list.find((r) => r.sn === body.sn);
      return row ? canonicalMac(row.mac) : '-';
    }
    return undefined;
  }

  function range(body: Record<string, unknown>): { from?: number; to?: number } {
    const t = body.time ?? body.ts;
    if (Array.isArray(t)) return { from: time(t[0], 'time'), to: time(t[1], 'time') };
    return { from: time(body.startTime, 'startTime'), to: time(body.endTime, 'endTime') };
  }

  // ingest's list/base calls, over the store the runtime opens once the server is ready
  const lazyStore = {
    engine: 'lazy',
    query: (q) => storeOrFail().query(q),
    latest: (series, org, keys) => storeOrFail().latest(series, org, keys),
  } as Pick<TelemetryStore, 'engine' | 'query' | 'latest'> as TelemetryStore;
  for (const def of dataPointCalls(lazyStore)) ctx.addCall(def);

  for (const k of KINDS) {
    const base = `/data-points/${k.kind}`;
    if (k.kind === 'gateway') {
      ctx.addCall({
        path: `${base}/list`,
        async handler({ body, ctx: call }) {
          const page = await storeOrFail().query({ series: k.schema.name, org: call.orgId!, key: await keyOf(k, body, call), ...range(body), page: Number(body.page) || 1, limit: Number(body.limit) || 10 });
          return { list: page.list.map((r) => present(k, r)), total: page.total };
        },
      });
      ctx.addCall({
        path: base,
        async handler({ body, ctx: call }) {
          const key = await keyOf(k, body, call);
          if (!key) throw new ApiError(ErrorCode.validation, 'validation.required', { name: tKey('fields.mac') });
          const [row] = await storeOrFail().latest(k.schema.name, call.orgId!, [key]);
          if (!row) throw new ApiError(ErrorCode.notFound, 'server.errors.10002');
          return present(k, row);
        },
      });
    }
    ctx.addCall({
      path: `${base}/export`,
      async handler({ body, ctx: call, res }) {
        const s = storeOrFail();
        const q = { series: k.schema.name, org: call.orgId!, key: await keyOf(k, body, call), ...range(body) };
        const columns = [k.kind === 'gps' ? 'ts' : 'time', k.schema.key, ...k.schema.columns.map((c) => c.name).filter((c) => c !== k.schema.key)];
        res.status(200);
        res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        res.setHeader('Content-Disposition', `attachment; filename="data-points-${k.kind}-${new Date().toISOString().slice(0, 10)}.xlsx"`);
        const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: false, useSharedStrings: false });
        const sheet = wb.addWorksheet(`data-points-${k.kind}`);
        sheet.columns = columns.map((c) => ({ header: c, key: c, width: 18 }));
        for (let page = 1, written = 0; written < EXPORT_MAX; page++) {
          const got = await s.query({ ...q, page, limit: 1000 });
          for (const r of got.list) {
            const row = present(k, r);
            sheet.addRow(columns.map((c) => row[c] ?? null)).commit();
          }
          written += got.list.length;
          if (got.list.length < 1000) break;
        }
        sheet.commit();
        await wb.commit();
        return STREAMED;
      },
    });
  }
}
