/**
 * One entry for every transport (embedded broker, external broker, HTTP): topic → organisation
 * and device checks → decoder → durable acceptance. Refusals are counted by reason and logged
 * at most once per reason every 10 s, so a flood cannot flood the log too.
 */
import { hash } from 'node:crypto';
import { decodeByKind, isReject, parseConfigAck, parseTopic, type DecodeContext, type DecodedFrame, type TopicKind } from './decoders';
import type { DeviceDirectory, GatewayIdentity, OrgIdentity } from './directory/device-directory';
import type { JournalRecord } from './journal/journal';
import { silentLogger, type Logger, type RawFrame } from './pipeline/pipeline';
import { RejectCounters, type RejectReason } from './reasons';

export const KIND_CODES: Record<TopicKind, number> = { scan: 1, heartbeat: 2, state: 3, report: 4 };
const KINDS: TopicKind[] = ['scan', 'scan', 'heartbeat', 'state', 'report'];
/** frames remembered for redelivery detection (covers every broker's in-flight window) */
export const RECENT_FRAMES = 16384;

function frameId(kind: number, org: number, source: string, payload: Buffer): string {
  return `${kind}/${org}/${source}/${payload.length}/${hash('sha1', payload, 'base64')}`;
}

/** Where accepted frames go: the pipeline (journal → store), or a discard sink in benchmarks. */
export interface FrameSink {
  accept(raw: RawFrame, frame: DecodedFrame): 'accepted' | 'full';
  whenWritable(): Promise<void>;
  /** non-null until the frame just accepted is on disk: acknowledge after it */
  durable?(): Promise<void> | null;
  /** non-null while the store lags: wait for it before acknowledging (back-pressure) */
  congested?(): Promise<void> | null;
}

export interface IntakeOptions {
  directory: DeviceDirectory;
  pipeline: FrameSink;
  /** payload limit in bytes (default 256 KiB) */
  maxBytes?: number;
  /** readings per frame (default 1000) */
  maxReadings?: number;
  /** keep readings of beacons/trackers that are not registered (default false: dropped, counted) */
  acceptUnknownDevices?: boolean;
  /** frames per second per sending device before 'rate-limited' (default 50, burst 2×) */
  maxFramesPerSecond?: number;
  /**
   * A tracker's answer to a configuration (`rti/<org>/gps/<sn>/config/ack`, docs/TELEMETRY.md
   * "GPS configuration"): not telemetry, so not journaled; handed to the server as it comes.
   */
  onConfigAck?: (ack: { orgId: number; orgCode: string; sn: string; payload: Buffer }) => void;
  log?: Logger;
}

export type IntakeResult =
  | { status: 'accepted'; rows: number; dropped?: Partial<Record<RejectReason, number>>; ackAfter?: Promise<void> }
  | { status: 'dropped'; reason: RejectReason; detail?: string }
  | { status: 'forbidden'; reason: RejectReason }
  | { status: 'full'; raw: RawFrame; frame: DecodedFrame };

export class Intake {
  readonly counters = new RejectCounters();
  private readonly maxBytes: number;
  private readonly maxReadings: number;
  private readonly rate: number;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly logged = new Map<string, { at: number; suppressed: number }>();
  private readonly log: Logger;
  /** identities of recently journaled frames, to recognise redeliveries */
  private readonly recent = new Set<string>();
  private readonly recentRing: string[] = [];
  private recentAt = 0;

  constructor(private readonly opts: IntakeOptions) {
    this.maxBytes = opts.maxBytes ?? 256 * 1024;
    this.maxReadings = opts.maxReadings ?? 1000;
    this.rate = opts.maxFramesPerSecond ?? 50;
    this.log = opts.log ?? silentLogger;
  }

  get pipeline(): FrameSink {
    return this.opts.pipeline;
  }

  /**
   * An MQTT message. `publisher` is the authenticated gateway (embedded broker) or undefined
   * (external broker: its ACLs decide). `dup` is the packet's DUP flag: a redelivery whose
   * frame is already journaled (acknowledgement lost in a crash) is acknowledged, not stored again.
   */
  handleMqtt(topic: string, payload: Buffer, publisher?: GatewayIdentity, dup = false): IntakeResult {
    const t = parseTopic(topic);
    if (!t) {
      const ack = parseConfigAck(topic);
      return ack ? this.configAck(ack, payload, publisher) : this.drop('unknown-topic', topic);
    }
    const org = this.opts.directory.org(t.orgCode);
    if (!org) return this.drop('unknown-org', topic);
    if (publisher) {
      const own = t.deviceType === 'gw' && t.device === publisher.mac;
      if (publisher.orgId !== org.id || (publisher.role === 'slave' && !own)) {
        this.counters.frame('forbidden');
        this.note('forbidden', `${publisher.mac} → ${topic}`);
        return { status: 'forbidden', reason: 'forbidden' };
      }
    }
    if (t.deviceType === 'gw' && !this.opts.directory.gateway(org.id, t.device)) return this.drop('unknown-device', topic);
    return this.process(t.kind, org, t.device, payload, true, dup);
  }

  /** A configuration answer: only a master gateway (or the external broker's ACL) of the tracker's organisation relays it. */
  private configAck(ack: { orgCode: string; sn: string }, payload: Buffer, publisher?: GatewayIdentity): IntakeResult {
    const org = this.opts.directory.org(ack.orgCode);
    if (!org) return this.drop('unknown-org', ack.orgCode);
    if (publisher && (publisher.orgId !== org.id || publisher.role !== 'master')) {
      this.counters.frame('forbidden');
      this.note('forbidden', `${publisher.mac} → ${ack.orgCode}/gps/${ack.sn}/config/ack`);
      return { status: 'forbidden', reason: 'forbidden' };
    }
    if (payload.length > this.maxBytes) return this.drop('oversized', ack.sn);
    if (!this.opts.onConfigAck) return this.drop('unknown-topic', ack.sn);
    this.opts.onConfigAck({ orgId: org.id, orgCode: org.code, sn: ack.sn, payload });
    return { status: 'accepted', rows: 0 };
  }

  /** HTTP push of GPS reports for an organisation authenticated by its open-API token. */
  handleGpsPush(org: OrgIdentity, payload: Buffer, sn = ''): IntakeResult {
    // a vendor platform pushing for many trackers is not one flooding device
    return this.process('report', org, sn, payload, sn !== '');
  }

  /** HTTP push from a gateway without MQTT (same payloads as the MQTT topics). */
  handleGatewayPush(org: OrgIdentity, gatewayMac: string, kind: 'scan' | 'heartbeat', payload: Buffer): IntakeResult {
    if (!this.opts.directory.gateway(org.id, gatewayMac)) return this.drop('unknown-device', gatewayMac);
    return this.process(kind, org, gatewayMac, payload);
  }

  /** Connection changes the embedded broker sees itself (SPEC §4 connection: 10 / 20). */
  connection(gateway: GatewayIdentity, connected: boolean): IntakeResult {
    const payload = Buffer.from(`{"connection":${connected ? 10 : 20},"time":${Date.now()}}`);
    return this.process('state', { id: gateway.orgId, code: gateway.orgCode }, gateway.mac, payload, false);
  }

  /** Waits for journal room, then accepts a frame that was refused as 'full'. */
  async acceptWhenWritable(r: Extract<IntakeResult, { status: 'full' }>): Promise<IntakeResult> {
    for (;;) {
      await this.pipeline.whenWritable();
      if (this.pipeline.accept(r.raw, r.frame) === 'accepted') {
        await this.pipeline.durable?.();
        return { status: 'accepted', rows: r.frame.rows.length };
      }
    }
  }

  /**
   * Seeds redelivery detection after a restart with the newest journaled frames, stored or not:
   * a frame can be stored before its acknowledgement left (acknowledgements may wait for the
   * journal write or for back-pressure), and the broker then redelivers it with DUP set.
   */
  seedRecent(records: readonly JournalRecord[]): void {
    for (const rec of records) this.remember(frameId(rec.kind, rec.org, rec.source, rec.payload));
  }

  /** Decoder for journal replay (same checks as on arrival). */
  redecode = (rec: JournalRecord): DecodedFrame | null => {
    const kind = KINDS[rec.kind];
    if (!kind) return null;
    this.remember(frameId(rec.kind, rec.org, rec.source, rec.payload));
    const r = decodeByKind(kind, rec.payload, this.context(kind, rec.org, rec.source, rec.receivedAt));
    return isReject(r) ? null : r;
  };

  private process(kind: TopicKind, org: OrgIdentity, source: string, payload: Buffer, limited = true, dup = false): IntakeResult {
    const receivedAt = Date.now();
    const id = frameId(KIND_CODES[kind], org.id, source, payload);
    if (dup && this.recent.has(id)) return this.drop('duplicate', source);
    if (limited && !this.allow(org.id, source, receivedAt)) return this.drop('rate-limited', source);
    const r = decodeByKind(kind, payload, this.context(kind, org.id, source, receivedAt));
    if (isReject(r)) return this.drop(r.reject, `${source}${r.detail ? ` (${r.detail})` : ''}`, r.detail);
    if (r.dropped) {
      for (const [reason, n] of Object.entries(r.dropped) as Array<[RejectReason, number]>) {
        this.counters.reading(reason, n);
        this.note(reason, `${n} reading(s) from ${source}`);
      }
    }
    if (r.rows.length === 0) return { status: 'accepted', rows: 0, dropped: r.dropped };
    const raw: RawFrame = { kind: KIND_CODES[kind], org: org.id, source, receivedAt, payload };
    if (this.pipeline.accept(raw, r) === 'full') {
      this.note('buffer-full', source);
      return { status: 'full', raw, frame: r };
    }
    this.remember(id);
    const written = this.pipeline.durable?.() ?? null;
    const lag = this.pipeline.congested?.() ?? null;
    const ackAfter = written && lag ? Promise.all([written, lag]).then(() => undefined) : (written ?? lag);
    return ackAfter
      ? { status: 'accepted', rows: r.rows.length, dropped: r.dropped, ackAfter }
      : { status: 'accepted', rows: r.rows.length, dropped: r.dropped };
  }

  private context(kind: TopicKind, org: number, source: string, receivedAt: number): DecodeContext {
    const dir = this.opts.directory;
    let known: ((key: string) => boolean) | undefined;
    let slot: ((key: string) => number | undefined) | undefined;
    if (!this.opts.acceptUnknownDevices) {
      // the organisation's keys are looked up once per frame, not once per reading
      const keys = kind === 'scan' || kind === 'report' ? dir.knownKeys?.(kind === 'scan' ? 'beacon' : 'gps', org) : undefined;
      if (keys) {
        known = (key) => keys.has(key);
        slot = (key) => keys.get(key);
      } else if (kind === 'scan') known = (mac) => dir.beaconKnown(org, mac);
      else if (kind === 'report') known = (sn) => dir.gpsKnown(org, sn);
    }
    return { org, source, receivedAt, maxBytes: this.maxBytes, maxReadings: this.maxReadings, known, slot };
  }

  private remember(id: string): void {
    const old = this.recentRing[this.recentAt];
    if (old !== undefined) this.recent.delete(old);
    this.recentRing[this.recentAt] = id;
    this.recent.add(id);
    this.recentAt = (this.recentAt + 1) % RECENT_FRAMES;
  }

  /** Token bucket per sending device. */
  private allow(org: number, source: string, now: number): boolean {
    if (this.rate <= 0) return true;
    const key = `${org}/${source}`;
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size > 100_000) this.buckets.clear();
      this.buckets.set(key, (b = { tokens: this.rate * 2, at: now }));
    }
    b.tokens = Math.min(this.rate * 2, b.tokens + ((now - b.at) * this.rate) / 1000);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private drop(reason: RejectReason, what: string, detail?: string): IntakeResult {
    this.counters.frame(reason);
    this.note(reason, what);
    return detail === undefined ? { status: 'dropped', reason } : { status: 'dropped', reason, detail };
  }

  private note(reason: RejectReason, what: string): void {
    const now = Date.now();
    const l = this.logged.get(reason);
    if (l && now - l.at < 10_000) {
      l.suppressed++;
      return;
    }
    const more = l?.suppressed ? ` (+${l.suppressed} more since last report)` : '';
    this.logged.set(reason, { at: now, suppressed: 0 });
    this.log.warn(`ingest: ${reason}: ${what}${more}`);
  }
}
