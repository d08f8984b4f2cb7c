/**
 * Slave-gateway BLE scan batch, topic rti/<orgCode>/gw/<gatewayMac>/scan.
 *
 *   { "gatewayMac": "AC233FC0A1B2", "time": 1763780000000,
 *     "readings": [ { "mac": "E2C56DB5DFFB", "rssi": -67, "battery": 87, "temperature": 21.4,
 *                     "humidity": 41.5, "uuid": "FDA50693-A4E2-4FB1-AFCF-C6EB07647825",
 *                     "major": 10001, "minor": 42, "txPower": -59, "time": 1763779999500 } ] }
 *
 * A bare array of readings is accepted too (many gateways send that). A bad frame is refused
 * as a whole; a bad reading inside a good frame is dropped alone and counted. The parsed
 * reading objects become the stored rows (normalised in place) — no copies on the hot path.
 */
import { RANGE, WRONG, int, isObject, mac, num, parseJson, time, uuid } from './fields';
import { countDrop, type DecodeContext, type DecodeResult, type DecodedFrame } from './types';
import type { SeriesRow } from '../store/series';
import { deviceSlots } from '../directory/device-slots';

export function decodeBeaconScan(payload: Buffer | string, ctx: DecodeContext): DecodeResult {
  const doc = parseJson(payload, ctx.maxBytes);
  if (doc === RANGE) return { reject: 'oversized' };
  if (doc === WRONG) return { reject: 'malformed-json' };
  let readings: unknown;
  let frameTime: number = ctx.receivedAt;
  if (Array.isArray(doc)) readings = doc;
  else if (isObject(doc)) {
    if (doc.gatewayMac !== undefined) {
      const gw = mac(doc.gatewayMac);
      if (gw === WRONG) return { reject: 'wrong-type', detail: 'gatewayMac' };
      if (gw !== ctx.source) return { reject: 'topic-mismatch', detail: gw };
    }
    const t = time(doc.time);
    if (t === WRONG) return { reject: 'wrong-type', detail: 'time' };
    if (t === RANGE) return { reject: 'out-of-range', detail: 'time' };
    if (t !== null) frameTime = t;
    readings = doc.readings;
    if (readings === undefined) return { reject: 'missing-field', detail: 'readings' };
  } else return { reject: 'wrong-type', detail: 'payload' };
  if (!Array.isArray(readings)) return { reject: 'wrong-type', detail: 'readings' };
  if (readings.length > ctx.maxReadings) return { reject: 'too-many-readings', detail: String(readings.length) };

  const frame: DecodedFrame = { series: 'beacon', org: ctx.org, source: ctx.source, rows: readings as SeriesRow[] };
  // sized once: grown by push, a frame's slot array would be reallocated several times
  const slots: number[] | undefined = ctx.slot ? new Array<number>(readings.length) : undefined;
  if (slots) frame.slots = slots;
  let kept = 0;
  const last = { uuid: '', slot: -1 };
  for (let i = 0; i < readings.length; i++) {
    const r = readings[i];
    const reason = normaliseReading(r, frameTime, ctx, last);
    if (reason === null) {
      if (slots) slots[kept] = last.slot;
      readings[kept++] = r;
    } else countDrop(frame, reason);
  }
  readings.length = kept;
  if (slots) slots.length = kept;
  return frame;
}

type Reason = 'wrong-type' | 'missing-field' | 'out-of-range' | 'unknown-device';

/**
 * Readings wait for their batch (tens of ms): each string they keep is copied by the GC. So a
 * registered mac is replaced by its slot's long-lived copy (the slot goes into last.slot), and a uuid equal to the
 * previous reading's shares its instance (one fleet often uses one uuid).
 */
function normaliseReading(r: unknown, frameTime: number, ctx: DecodeContext, last: { uuid: string; slot: number }): Reason | null {
  if (!isObject(r)) return 'wrong-type';
  if (r.mac === undefined) return 'missing-field';
  const m = mac(r.mac);
  if (m === WRONG) return 'wrong-type';
  if (r.rssi === undefined || r.rssi === null) return 'missing-field';
  const rssi = int(r.rssi, -127, 20);
  const battery = num(r.battery, 0, 100);
  const temperature = num(r.temperature, -60, 125);
  const humidity = num(r.humidity, 0, 100);
  const major = int(r.major, 0, 65535);
  const minor = int(r.minor, 0, 65535);
  const txPower = int(r.txPower, -128, 20);
  const t = time(r.time);
  if (
    rssi === WRONG ||
    battery === WRONG ||
    temperature === WRONG ||
    humidity === WRONG ||
    major === WRONG ||
    minor === WRONG ||
    txPower === WRONG ||
    t === WRONG
  )
    return 'wrong-type';
  if (
    rssi === RANGE ||
    battery === RANGE ||
    temperature === RANGE ||
    humidity === RANGE ||
    major === RANGE ||
    minor === RANGE ||
    txPower === RANGE ||
    t === RANGE
  )
    return 'out-of-range';
  const u = uuid(r.uuid);
  if (u === WRONG) return 'wrong-type';
  if (ctx.slot) {
    const k = ctx.slot(m);
    if (k === undefined) return 'unknown-device';
    r.mac = deviceSlots.key(k);
    last.slot = k;
  } else {
    if (ctx.known && !ctx.known(m)) return 'unknown-device';
    if (m !== r.mac) r.mac = m;
  }
  if (u !== null) {
    if (u === last.uuid) r.uuid = last.uuid;
    else {
      if (u !== r.uuid) r.uuid = u;
      last.uuid = u;
    }
  }
  r.time = t ?? frameTime;
  r.org = ctx.org;
  r.gatewayMac = ctx.source;
  return null;
}
