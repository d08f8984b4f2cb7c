/**
 * GPS tracker report, topic rti/<orgCode>/gps/<sn>/report or the HTTP push. Fields are the
 * SPEC §3 GPS data point; dataType (SPEC §9): location 10, event/alarm 20, temperature and
 * humidity 30.
 *
 *   { "sn": "GT-000123", "reports": [
 *     { "ts": 1763780000000, "dataType": 10, "longitude": 121.47, "latitude": 31.23,
 *       "altitude": 12, "speed": 54.2, "mileage": 10234.5, "battery": 76, "locationType": 1 },
 *     { "ts": 1763780005000, "dataType": 20, "eventCode": "018", "eventValue": "1" },
 *     { "ts": 1763780010000, "dataType": 30, "temperature1": 4.5, "humidity1": 61 } ] }
 *
 * One report object or a bare array of reports is accepted too. A report may carry its own
 * "sn" (vendor pushes batch many trackers); it must equal the topic's sn when there is one.
 */
import { RANGE, WRONG, int, isObject, num, parseJson, str, time } from './fields';
import { countDrop, type DecodeContext, type DecodeResult, type DecodedFrame } from './types';
import type { SeriesRow } from '../store/series';

export const GPS_DATA_TYPES = { location: 10, event: 20, sensor: 30 } as const;

const RANGES: Record<string, [number, number]> = {
  battery: [0, 100],
  longitude: [-180, 180],
  latitude: [-90, 90],
  altitude: [-1000, 20000],
  speed: [0, 1000],
  acceleration: [-100, 100],
  mileage: [0, 1e9],
  temperature1: [-60, 125],
  temperature2: [-60, 125],
  temperature3: [-60, 125],
  humidity1: [0, 100],
  humidity2: [0, 100],
  humidity3: [0, 100],
  pressure1: [0, 10000],
  pressure2: [0, 10000],
  pressure3: [0, 10000],
};
const NUMERIC = Object.keys(RANGES);
const SN = /^[A-Za-z0-9_.:-]{1,64}$/;

export function isGpsSn(v: unknown): v is string {
  return typeof v === 'string' && SN.test(v);
}

export function decodeGpsReport(payload: Buffer | string, ctx: DecodeContext): DecodeResult {
  const doc = parseJson(payload, ctx.maxBytes);
  if (doc === RANGE) return { reject: 'oversized' };
  if (doc === WRONG) return { reject: 'malformed-json' };
  let reports: unknown[];
  let frameSn: string | undefined;
  if (Array.isArray(doc)) reports = doc;
  else if (isObject(doc)) {
    if (doc.sn !== undefined) {
      if (!isGpsSn(doc.sn)) return { reject: 'wrong-type', detail: 'sn' };
      frameSn = doc.sn;
    }
    if (doc.reports === undefined) reports = [doc];
    else if (Array.isArray(doc.reports)) reports = doc.reports;
    else return { reject: 'wrong-type', detail: 'reports' };
  } else return { reject: 'wrong-type', detail: 'payload' };
  if (ctx.source && frameSn !== undefined && frameSn !== ctx.source) return { reject: 'topic-mismatch', detail: frameSn };
  if (reports.length > ctx.maxReadings) return { reject: 'too-many-readings', detail: String(reports.length) };
  const sn = ctx.source || frameSn || '';

  const frame: DecodedFrame = { series: 'gps', org: ctx.org, source: sn, rows: reports as SeriesRow[] };
  let kept = 0;
  for (let i = 0; i < reports.length; i++) {
    const r = reports[i];
    const reason = normaliseReport(r, sn, ctx);
    if (reason === null) reports[kept++] = r;
    else countDrop(frame, reason);
  }
  reports.length = kept;
  return frame;
}

type Reason = 'wrong-type' | 'missing-field' | 'out-of-range' | 'unknown-device' | 'topic-mismatch';

function normaliseReport(r: unknown, frameSn: string, ctx: DecodeContext): Reason | null {
  if (!isObject(r)) return 'wrong-type';
  let sn = frameSn;
  if (r.sn !== undefined && r.sn !== frameSn) {
    if (!isGpsSn(r.sn)) return 'wrong-type';
    if (ctx.source) return 'topic-mismatch';
    sn = r.sn;
  }
  if (!sn) return 'missing-field';
  const dataType = r.dataType ?? GPS_DATA_TYPES.location;
  if (dataType !== 10 && dataType !== 20 && dataType !== 30) return typeof dataType === 'number' ? 'out-of-range' : 'wrong-type';
  const t = time(r.ts ?? r.time);
  if (t === WRONG) return 'wrong-type';
  if (t === RANGE) return 'out-of-range';
  for (let i = 0; i < NUMERIC.length; i++) {
    const f = NUMERIC[i];
    const [min, max] = RANGES[f];
    const v = num(r[f], min, max);
    if (v === WRONG) return 'wrong-type';
    if (v === RANGE) return 'out-of-range';
  }
  for (const f of ['runningTime', 'stoppingTime', 'locationType'] as const) {
    const v = int(r[f], 0, 1e10);
    if (v === WRONG) return 'wrong-type';
    if (v === RANGE) return 'out-of-range';
  }
  // Event codes are three-digit strings ("018") or short letters ("Y"/"N" fence enter/leave).
  let code = r.eventCode;
  if (typeof code === 'number' && Number.isInteger(code) && code >= 0 && code < 1000) code = String(code).padStart(3, '0');
  const eventCode = str(code, 16);
  if (eventCode === WRONG) return 'wrong-type';
  if (eventCode === RANGE) return 'out-of-range';
  let value = r.eventValue;
  if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
  const eventValue = str(value, 64);
  if (eventValue === WRONG) return 'wrong-type';
  if (eventValue === RANGE) return 'out-of-range';
  const location = str(r.location, 255);
  if (location === WRONG) return 'wrong-type';
  if (location === RANGE) return 'out-of-range';
  if (dataType === 10 && (typeof r.longitude !== 'number' || typeof r.latitude !== 'number')) return 'missing-field';
  if (dataType === 20 && eventCode === null) return 'missing-field';
  if (
    dataType === 30 &&
    r.temperature1 == null &&
    r.temperature2 == null &&
    r.temperature3 == null &&
    r.humidity1 == null &&
    r.humidity2 == null &&
    r.humidity3 == null
  )
    return 'missing-field';
  if (ctx.known && !ctx.known(sn)) return 'unknown-device';
  r.sn = sn;
  r.org = ctx.org;
  r.time = t ?? ctx.receivedAt;
  r.dataType = dataType;
  if (eventCode !== r.eventCode) r.eventCode = eventCode;
  if (eventValue !== r.eventValue) r.eventValue = eventValue;
  return null;
}
