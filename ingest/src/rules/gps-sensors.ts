/**
 * GPS sensor and movement rules: temperature (probes 1–3) against high/lowTempThreshold,
 * humidity against high/lowHumidityThreshold, acceleration (G) against shakeThreshold, and
 * an altitude change above 200 m between consecutive fixes. Vendor event reports (dataType
 * 20) become alerts under their own code; a repeated code is not raised again while open
 * (VENDOR_QUIET_MS).
 */
import { GPS_CODE, type AlertText } from '../state/effects';
import type { DeviceInfo } from '../state/fleet';
import { clear, raise, type DeviceState } from '../state/subject-state';
import { ALTITUDE_CHANGE_M, MINUTE, type RuleContext } from './context';
import { closeDeviceAlert, openDeviceAlert } from './device-alerts';

const VENDOR_QUIET_MS = 30 * MINUTE;

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function level(
  ctx: RuleContext,
  d: DeviceInfo,
  s: DeviceState,
  time: number,
  code: string,
  breached: boolean | null,
  message: string,
  raw: unknown,
  text?: AlertText,
): void {
  if (breached === null) return;
  if (breached) {
    if (raise(s, code, time)) openDeviceAlert(ctx, d, time, { code }, message, raw, text);
  } else if (clear(s, code)) closeDeviceAlert(ctx, d, time, { code });
}

export function sensorRules(ctx: RuleContext, d: DeviceInfo, s: DeviceState, r: Row, time: number): void {
  const temps = [num(r.temperature1), num(r.temperature2), num(r.temperature3)].filter((v): v is number => v !== null);
  if (temps.length) {
    const hi = Math.max(...temps);
    const lo = Math.min(...temps);
    if (d.highTemp != null)
      level(ctx, d, s, time, GPS_CODE.highTemperature, hi > d.highTemp, `temperature ${hi} °C above ${d.highTemp} °C`, r, {
        id: 'temperatureHigh',
        params: { value: hi, threshold: d.highTemp },
      });
    if (d.lowTemp != null)
      level(ctx, d, s, time, GPS_CODE.lowTemperature, lo < d.lowTemp, `temperature ${lo} °C below ${d.lowTemp} °C`, r, {
        id: 'temperatureLow',
        params: { value: lo, threshold: d.lowTemp },
      });
  }
  const hums = [num(r.humidity1), num(r.humidity2), num(r.humidity3)].filter((v): v is number => v !== null);
  if (hums.length) {
    const hi = Math.max(...hums);
    const lo = Math.min(...hums);
    if (d.highHumidity != null)
      level(ctx, d, s, time, GPS_CODE.highHumidity, hi > d.highHumidity, `humidity ${hi}% above ${d.highHumidity}%`, r, {
        id: 'humidityHigh',
        params: { value: hi, threshold: d.highHumidity },
      });
    if (d.lowHumidity != null)
      level(ctx, d, s, time, GPS_CODE.lowHumidity, lo < d.lowHumidity, `humidity ${lo}% below ${d.lowHumidity}%`, r, {
        id: 'humidityLow',
        params: { value: lo, threshold: d.lowHumidity },
      });
  }
  const acc = num(r.acceleration);
  if (acc !== null && d.shake != null)
    level(ctx, d, s, time, GPS_CODE.shake, Math.abs(acc) > d.shake, `shake ${Math.abs(acc)} G above ${d.shake} G`, r, {
      id: 'shake',
      params: { value: Math.abs(acc), threshold: d.shake },
    });
}

export function altitudeRule(ctx: RuleContext, d: DeviceInfo, s: DeviceState, altitude: number, time: number, raw: unknown): void {
  const prev = s.altitude;
  s.altitude = altitude;
  if (prev === null) return;
  const change = Math.abs(altitude - prev);
  level(ctx, d, s, time, GPS_CODE.altitudeChange, change > ALTITUDE_CHANGE_M, `altitude changed ${Math.round(change)} m (${prev} → ${altitude} m)`, raw, {
    id: 'altitudeChange',
    params: { change: Math.round(change), from: prev, to: altitude },
  });
}

export function vendorEvent(ctx: RuleContext, d: DeviceInfo, s: DeviceState, code: string, r: Row, time: number): void {
  const key = `event:${code}`;
  const since = s.open[key];
  if (since !== undefined && time - since < VENDOR_QUIET_MS) return;
  s.open[key] = time;
  const text: AlertText =
    r.eventValue != null ? { id: 'deviceEventValue', params: { code, value: String(r.eventValue) } } : { id: 'deviceEvent', params: { code } };
  openDeviceAlert(ctx, d, time, { code }, `device event ${code}${r.eventValue != null ? ` (${String(r.eventValue)})` : ''}`, r, text);
}
