/**
 * HTTP push intake (docs/TELEMETRY.md §5): GPS vendor platforms and gateways without MQTT
 * push frames to
 *
 *   POST /api/ingest/gps                GPS reports ({ sn, reports } or reports carrying "sn")
 *   POST /api/ingest/gateway/scan       beacon scan batch ("gatewayMac" required)
 *   POST /api/ingest/gateway/heartbeat  gateway heartbeat ("gatewayMac" required)
 *
 * authenticated by the organisation's open-API token (`Token` header, the open-api plugin's
 * auth strategy): the token decides the organisation, and devices of other organisations are
 * refused. Raw calls: the body is read here as bytes and journaled as received. Through the
 * one dispatcher, so errors are envelopes in the caller's Language like every other call.
 */
import { gatewayOfBody, readBody, type PushKind, type PushOutcome } from '@rti/ingest/http/push';
import type { OrgIdentity } from '@rti/ingest';
import { ApiError, ErrorCode, tKey, type PluginServerContext, type RequestContext } from '@rti/server/plugin-api';
import type { TelemetryRuntime } from './runtime';

/** HTTP body limit; a frame's own limit (INGEST_MAX_PAYLOAD_BYTES) is checked by the decoder. */
const BODY_LIMIT = 1024 * 1024;
const FRAME_LIMIT = () => Number(process.env.INGEST_MAX_PAYLOAD_BYTES) || 256 * 1024;
const READINGS_LIMIT = () => Number(process.env.INGEST_MAX_READINGS) || 1000;

const kib = (n: number) => `${Math.round(n / 1024)} KiB`;

/** A refusal of the intake as an API error in the caller's language. */
function refusal(r: Extract<PushOutcome, { ok: false }>, kind: PushKind): ApiError {
  const field = r.detail && /^[A-Za-z0-9]+$/.test(r.detail) ? r.detail : 'payload';
  switch (r.reason) {
    case 'malformed-json':
      return new ApiError(ErrorCode.malformedJson, 'server.errors.10012', {}, 400);
    case 'oversized':
      return new ApiError(ErrorCode.tooLarge, 'server.errors.10011', { limit: kib(FRAME_LIMIT()) }, 413);
    case 'unknown-device':
      return new ApiError(ErrorCode.notFound, 'server.validation.refMissing', { field: tKey(kind === 'gps' ? 'fields.sn' : 'fields.mac') });
    case 'missing-field':
      return new ApiError(ErrorCode.validation, 'server.validation.required', { field });
    case 'too-many-readings':
      return new ApiError(ErrorCode.validation, 'server.validation.lengthMax', { field: kind === 'gps' ? 'reports' : 'readings', max: READINGS_LIMIT() });
    case 'buffer-full':
      return new ApiError(ErrorCode.internal, 'server.errors.10000', {}, 503);
    case 'rate-limited':
      return new ApiError(ErrorCode.validation, 'server.errors.10001', {}, 429);
    default:
      // wrong-type, out-of-range, topic-mismatch: the field (or the payload) is wrong
      return new ApiError(ErrorCode.validation, 'server.validation.format', { field });
  }
}

export function installIngestCalls(ctx: PluginServerContext, rt: TelemetryRuntime): void {
  const org = async (call: RequestContext): Promise<OrgIdentity> => {
    // people use the console; pushes come from devices and vendor platforms with the org token
    if (call.via !== 'org-token' || call.orgId === null) throw new ApiError(ErrorCode.noPermission, 'server.errors.10005', {}, 403);
    await rt.ready;
    if (!rt.push || !rt.directory) throw new ApiError(ErrorCode.internal, 'server.errors.10000', {}, 503);
    let found = rt.directory.orgById(call.orgId);
    if (!found) {
      // an organisation created since the directory's last refresh
      await rt.directory.refresh();
      found = rt.directory.orgById(call.orgId);
    }
    if (!found) throw new ApiError(ErrorCode.invalidSession, 'server.errors.10006', {}, 401);
    return found;
  };

  const add = (path: string, kind: PushKind) =>
    ctx.addCall({
      path,
      raw: true,
      // the token's organisation is the whole check; session users are refused above
      permission: null,
      async handler({ ctx: call, req, res }) {
        const o = await org(call);
        const target = rt.push!;
        const body = await readBody(req, BODY_LIMIT);
        if (body === 'too-large') {
          target.refuse('oversized');
          throw new ApiError(ErrorCode.tooLarge, 'server.errors.10011', { limit: kib(BODY_LIMIT) }, 413);
        }
        let device = '';
        if (kind !== 'gps') {
          const gw = gatewayOfBody(body, FRAME_LIMIT());
          if (!('mac' in gw)) {
            target.refuse(gw.reason);
            throw refusal({ ok: false, reason: gw.reason, detail: gw.detail }, kind);
          }
          device = gw.mac;
        }
        const r = await target.push(o, kind, device, body);
        if (r.ok) return { accepted: r.accepted, dropped: r.dropped };
        if (r.reason === 'buffer-full') res.setHeader('Retry-After', '5');
        if (r.reason === 'rate-limited') res.setHeader('Retry-After', '1');
        throw refusal(r, kind);
      },
    });
  add('/ingest/gps', 'gps');
  add('/ingest/gateway/scan', 'scan');
  add('/ingest/gateway/heartbeat', 'heartbeat');
}
