/**
 * What an HTTP push does once the caller's organisation is known, whatever the transport in
 * front of it (the server's /api/ingest/* calls, the bare Node handler of http-intake.ts):
 *
 * - `intakePush`: into this process's intake (journal → store → onStored → rules), answered
 *   once durably accepted — the same path an MQTT frame takes.
 * - `brokerPush`: for a server whose ingest runs as separate workers (external broker): the
 *   frame is checked with the same decoders, then published at QoS 1 on its MQTT topic and
 *   answered after the broker's PUBACK. The workers store it (shared subscription) and the
 *   server's state feed derives state from it, exactly as from a gateway's own publish — so
 *   pushed frames reach the rules in every mode.
 */
import type { IncomingMessage } from 'node:http';
import { decodeByKind, isReject, TOPIC_ROOT, type DecodedFrame, type TopicKind } from '../decoders';
import { WRONG, isObject, mac as parseMac, parseJson } from '../decoders/fields';
import type { DeviceDirectory, OrgIdentity } from '../directory/device-directory';
import type { Intake, IntakeResult } from '../intake';
import { RejectCounters, type RejectReason } from '../reasons';

export type PushKind = 'gps' | 'scan' | 'heartbeat';

export type PushOutcome =
  | { ok: true; accepted: number; dropped: Partial<Record<RejectReason, number>> }
  | { ok: false; reason: RejectReason; detail?: string; dropped?: Partial<Record<RejectReason, number>> };

export interface PushTarget {
  /** `device`: gateway mac or GPS sn from the path ('' for a GPS push naming its trackers in the body) */
  push(org: OrgIdentity, kind: PushKind, device: string, body: Buffer): Promise<PushOutcome>;
  /** refusals seen before a frame reached the target (body too large to read) */
  refuse(reason: RejectReason): void;
}

const KIND: Record<PushKind, TopicKind> = { gps: 'report', scan: 'scan', heartbeat: 'heartbeat' };

/** Reads a request body up to `max` bytes; beyond that the rest is drained and 'too-large' returned. */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > max) {
      req.resume();
      return resolve('too-large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The gateway a push without the mac in its path is for: the payload's `gatewayMac`
 * (required then). Parses the body once more — an HTTP push is not the hot path.
 */
export function gatewayOfBody(body: Buffer, maxBytes: number): { mac: string } | { reason: RejectReason; detail?: string } {
  const doc = parseJson(body, maxBytes);
  if (typeof doc === 'symbol') return { reason: doc === WRONG ? 'malformed-json' : 'oversized' };
  if (!isObject(doc)) return { reason: 'wrong-type', detail: 'payload' };
  if (doc.gatewayMac === undefined) return { reason: 'missing-field', detail: 'gatewayMac' };
  const m = parseMac(doc.gatewayMac);
  return m === WRONG ? { reason: 'wrong-type', detail: 'gatewayMac' } : { mac: m };
}

/** A frame with readings all refused answers the refusal, not "0 accepted". */
function outcomeOf(accepted: number, dropped: Partial<Record<RejectReason, number>> = {}): PushOutcome {
  if (accepted > 0) return { ok: true, accepted, dropped };
  const worst = (Object.entries(dropped) as Array<[RejectReason, number]>).sort((a, b) => b[1] - a[1])[0];
  return worst ? { ok: false, reason: worst[0], dropped } : { ok: true, accepted: 0, dropped };
}

/** Pushes into this process's intake (embedded ingest, or a worker serving HTTP itself). */
export function intakePush(intake: Intake, opts: { fullWaitMs?: number } = {}): PushTarget {
  const fullWaitMs = opts.fullWaitMs ?? 2000;
  return {
    refuse: (reason) => intake.counters.frame(reason),
    async push(org, kind, device, body) {
      let r: IntakeResult = kind === 'gps' ? intake.handleGpsPush(org, body, device) : intake.handleGatewayPush(org, device, kind, body);
      if (r.status === 'full') {
        // a short wait absorbs a burst; a store outage longer than that is the client's to retry
        r = await Promise.race([intake.acceptWhenWritable(r), new Promise<IntakeResult>((resolve) => setTimeout(() => resolve(r), fullWaitMs).unref())]);
        if (r.status === 'full') return { ok: false, reason: 'buffer-full' };
      }
      if (r.status !== 'accepted') return { ok: false, reason: r.reason, detail: r.status === 'dropped' ? r.detail : undefined };
      if (r.ackAfter) await r.ackAfter;
      return outcomeOf(r.rows, r.dropped);
    },
  };
}

export interface BrokerPushOptions {
  directory: DeviceDirectory;
  /** QoS 1 publish; resolves on the broker's PUBACK */
  publish(topic: string, payload: Buffer): Promise<void>;
  maxBytes?: number;
  maxReadings?: number;
  /** a broker that does not acknowledge within this answers 503 "retry" (default 5000 ms) */
  timeoutMs?: number;
}

/** Checks a pushed frame here and hands it to the workers through the broker. */
export function brokerPush(opts: BrokerPushOptions): PushTarget & { counters: RejectCounters } {
  const counters = new RejectCounters();
  const maxBytes = opts.maxBytes ?? 256 * 1024;
  const maxReadings = opts.maxReadings ?? 1000;
  const dir = opts.directory;
  const refused = (reason: RejectReason, detail?: string): PushOutcome => {
    counters.frame(reason);
    return { ok: false, reason, detail };
  };
  return {
    counters,
    refuse: (reason) => counters.frame(reason),
    async push(org, kind, device, body) {
      if (kind !== 'gps' && !dir.gateway(org.id, device)) return refused('unknown-device', device);
      const known = kind === 'scan' ? (m: string) => dir.beaconKnown(org.id, m) : kind === 'gps' ? (sn: string) => dir.gpsKnown(org.id, sn) : undefined;
      const r = decodeByKind(KIND[kind], body, { org: org.id, source: device, receivedAt: Date.now(), maxBytes, maxReadings, known });
      if (isReject(r)) return refused(r.reject, r.detail);
      for (const [reason, n] of Object.entries(r.dropped ?? {}) as Array<[RejectReason, number]>) counters.reading(reason, n);
      const outcome = outcomeOf(r.rows.length, r.dropped);
      if (!outcome.ok || r.rows.length === 0) return outcome;
      const published = Promise.all(frames(org, kind, device, body, r).map(([topic, payload]) => opts.publish(topic, payload)));
      let timer: NodeJS.Timeout | undefined;
      const acked = await Promise.race([
        published.then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), opts.timeoutMs ?? 5000))),
      ]).finally(() => clearTimeout(timer));
      // not acknowledged: the client retries (a late delivery makes that one frame twice)
      if (!acked) return refused('buffer-full');
      return outcome;
    },
  };
}

/**
 * Topic and payload per device. A frame of one device goes out as received; a vendor push
 * for several trackers is split by sn into `{ sn, reports }` of its accepted reports (the
 * topic names one tracker).
 */
function frames(org: OrgIdentity, kind: PushKind, device: string, body: Buffer, frame: DecodedFrame): Array<[string, Buffer]> {
  if (kind !== 'gps') return [[`${TOPIC_ROOT}/${org.code}/gw/${device}/${kind}`, body]];
  if (device) return [[`${TOPIC_ROOT}/${org.code}/gps/${device}/report`, body]];
  const bySn = new Map<string, unknown[]>();
  for (const row of frame.rows) {
    const sn = row.sn as string;
    const { org: _org, ...report } = row;
    let list = bySn.get(sn);
    if (!list) bySn.set(sn, (list = []));
    list.push(report);
  }
  return [...bySn].map(([sn, reports]) => [`${TOPIC_ROOT}/${org.code}/gps/${sn}/report`, Buffer.from(JSON.stringify({ sn, reports }))]);
}
