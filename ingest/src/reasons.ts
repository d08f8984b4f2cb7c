/**
 * Why a frame or a reading was refused. Every refusal is counted under one of these so an
 * operator can tell a misconfigured gateway (wrong-type) from an attack (oversized, flood).
 */
export type RejectReason =
  | 'oversized' // payload larger than the configured limit
  | 'malformed-json' // not parseable JSON
  | 'wrong-type' // a field has the wrong JSON type
  | 'missing-field' // a required field is absent
  | 'out-of-range' // a number outside the field's physical range
  | 'too-many-readings' // batch longer than the configured limit
  | 'topic-mismatch' // payload names another device than the topic
  | 'unknown-topic' // topic outside the documented layout
  | 'unknown-org' // organisation code not known
  | 'unknown-device' // device not registered (or disabled) in that organisation
  | 'forbidden' // authenticated client publishing outside its own topics
  | 'buffer-full' // durable buffer full: refused (not acknowledged) or dropped
  | 'rate-limited' // flood protection
  | 'duplicate'; // MQTT redelivery (DUP) of a frame already journaled

/** Counters by reason; plain object so a snapshot is cheap to serialise for /metrics. */
export class RejectCounters {
  readonly frames: Partial<Record<RejectReason, number>> = {};
  readonly readings: Partial<Record<RejectReason, number>> = {};

  frame(reason: RejectReason): void {
    this.frames[reason] = (this.frames[reason] ?? 0) + 1;
  }

  reading(reason: RejectReason, n = 1): void {
    this.readings[reason] = (this.readings[reason] ?? 0) + n;
  }

  total(): number {
    let n = 0;
    for (const v of Object.values(this.frames)) n += v ?? 0;
    for (const v of Object.values(this.readings)) n += v ?? 0;
    return n;
  }
}
