/**
 * HTTP push intake for GPS vendor platforms and gateways without MQTT, authenticated by the
 * organisation's open-API token (header `Token`, as for every open-API call). A plain Node
 * handler, so it mounts on Express (`app.use('/ingest', handler)`) or a bare http.Server:
 *
 *   POST <mount>/gps                  GPS reports, each carrying its "sn" (vendor batches)
 *   POST <mount>/gps/<sn>             GPS reports of one tracker (payload as the MQTT topic)
 *   POST <mount>/gw/<mac>/scan        beacon scan batch of one gateway
 *   POST <mount>/gw/<mac>/heartbeat   gateway heartbeat
 *
 * Answers follow docs/API.md: { code, message, data }. 200 code 0 means durably accepted
 * (data: rows accepted and readings dropped by reason); 503 asks to retry (buffer full).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WRONG, mac as parseMac } from '../decoders/fields';
import { isGpsSn } from '../decoders/gps-report';
import type { DeviceDirectory, OrgIdentity } from '../directory/device-directory';
import type { Intake } from '../intake';
import { intakePush, readBody, type PushTarget } from './push';

export interface HttpIntakeOptions {
  /** where frames go: this process's intake (default) … */
  intake?: Intake;
  /** … or another target (push.ts brokerPush: through the external broker to workers and rules) */
  target?: PushTarget;
  directory: DeviceDirectory;
  /** open-API token → organisation id (the open-api plugin's OrgTokenStore.resolve) */
  resolveToken: (token: string) => Promise<number | null>;
  /** body limit in bytes (default 1 MiB) */
  maxBytes?: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;

const ERR = { validation: 10001, notFound: 10002, internal: 10000, session: 10006, tooLarge: 10011, malformed: 10012, unknownCall: 10013 } as const;

function send(res: ServerResponse, status: number, code: number, message: string, data: unknown = null, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ code, message, data });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export function createHttpIntake(opts: HttpIntakeOptions): Handler {
  const max = opts.maxBytes ?? 1024 * 1024;
  const target = opts.target ?? (opts.intake ? intakePush(opts.intake) : undefined);
  if (!target) throw new Error('createHttpIntake needs an intake or a target');
  return (req, res, next) => {
    handle(req, res).catch((err) => (next ? next(err) : send(res, 500, ERR.internal, 'internal error')));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = parseRoute((req.url ?? '/').split('?')[0]);
    if (!route) return send(res, 404, ERR.unknownCall, 'unknown ingest call');
    if (req.method !== 'POST') return send(res, 405, ERR.unknownCall, 'use POST', null, { Allow: 'POST' });
    const token = req.headers.token;
    const orgId = typeof token === 'string' && token ? await opts.resolveToken(token) : null;
    const org: OrgIdentity | undefined = orgId === null ? undefined : opts.directory.orgById(orgId);
    if (!org) {
      req.resume();
      return send(res, 401, ERR.session, 'missing or invalid organisation token');
    }
    const body = await readBody(req, max);
    if (body === 'too-large') {
      target!.refuse('oversized');
      return send(res, 413, ERR.tooLarge, `request body larger than ${max} bytes`);
    }
    const r = await target!.push(org, route.kind, route.device, body);
    if (r.ok) return send(res, 200, 0, 'ok', { accepted: r.accepted, dropped: r.dropped });
    if (r.reason === 'buffer-full') return send(res, 503, ERR.internal, 'ingest buffer full, retry later', null, { 'Retry-After': '5' });
    if (r.reason === 'malformed-json') return send(res, 400, ERR.malformed, 'malformed JSON');
    if (r.reason === 'oversized') return send(res, 413, ERR.tooLarge, 'payload too large');
    if (r.reason === 'wrong-type') return send(res, 400, ERR.validation, 'payload has a field of the wrong type', { reason: r.reason, dropped: r.dropped });
    if (r.reason === 'unknown-device')
      return send(res, 200, ERR.notFound, 'device not registered in this organisation', { reason: r.reason, dropped: r.dropped });
    return send(res, 200, ERR.validation, `payload refused: ${r.reason}`, { reason: r.reason, dropped: r.dropped });
  }
}

function parseRoute(p: string): { kind: 'gps' | 'scan' | 'heartbeat'; device: string } | null {
  const parts = p.split('/').filter(Boolean);
  if (parts[0] === 'gps' && parts.length === 1) return { kind: 'gps', device: '' };
  if (parts[0] === 'gps' && parts.length === 2 && isGpsSn(decodeURIComponent(parts[1]))) return { kind: 'gps', device: decodeURIComponent(parts[1]) };
  if (parts[0] === 'gw' && parts.length === 3 && (parts[2] === 'scan' || parts[2] === 'heartbeat')) {
    const m = parseMac(decodeURIComponent(parts[1]));
    if (m !== WRONG) return { kind: parts[2], device: m };
  }
  return null;
}
