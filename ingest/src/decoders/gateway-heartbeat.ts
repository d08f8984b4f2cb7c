/**
 * Gateway heartbeat and connection state, topics rti/<orgCode>/gw/<gatewayMac>/heartbeat and
 * …/state (the state topic is meant as the gateway's MQTT last will: {"connection":20}).
 *
 *   { "gatewayMac": "AC233FC0A1B2", "time": 1763780000000, "uptime": 86400,
 *     "firmware": "2.1.7", "ip": "10.1.2.3", "scanned": 118, "temperature": 36.5 }
 *
 * connection follows SPEC §4 (connected 10, disconnected 20); a heartbeat implies 10.
 */
import { RANGE, WRONG, int, isObject, mac, num, parseJson, str, time } from './fields';
import type { DecodeContext, DecodeResult } from './types';

export function decodeGatewayHeartbeat(payload: Buffer | string, ctx: DecodeContext, kind: 'heartbeat' | 'state'): DecodeResult {
  const doc = parseJson(payload, ctx.maxBytes);
  if (doc === RANGE) return { reject: 'oversized' };
  if (doc === WRONG) return { reject: 'malformed-json' };
  if (!isObject(doc)) return { reject: 'wrong-type', detail: 'payload' };
  if (doc.gatewayMac !== undefined) {
    const gw = mac(doc.gatewayMac);
    if (gw === WRONG) return { reject: 'wrong-type', detail: 'gatewayMac' };
    if (gw !== ctx.source) return { reject: 'topic-mismatch', detail: gw };
  }
  const t = time(doc.time);
  const connection = int(doc.connection, 10, 20);
  const uptime = int(doc.uptime, 0, 1e10);
  const scanned = int(doc.scanned, 0, 1e9);
  const temperature = num(doc.temperature, -60, 150);
  const firmware = str(doc.firmware, 64);
  const ip = str(doc.ip, 64);
  for (const [field, v] of [
    ['time', t],
    ['connection', connection],
    ['uptime', uptime],
    ['scanned', scanned],
    ['temperature', temperature],
    ['firmware', firmware],
    ['ip', ip],
  ] as const) {
    if (v === WRONG) return { reject: 'wrong-type', detail: field };
    if (v === RANGE) return { reject: 'out-of-range', detail: field };
  }
  if (connection !== null && connection !== 10 && connection !== 20) return { reject: 'out-of-range', detail: 'connection' };
  if (kind === 'state' && connection === null) return { reject: 'missing-field', detail: 'connection' };
  return {
    series: 'gateway',
    org: ctx.org,
    source: ctx.source,
    rows: [
      { org: ctx.org, mac: ctx.source, time: (t as number | null) ?? ctx.receivedAt, connection: connection ?? 10, uptime, scanned, temperature, firmware, ip },
    ],
  };
}
