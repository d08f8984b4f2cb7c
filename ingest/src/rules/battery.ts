/**
 * Battery below the device model's batteryThreshold (%): beacon alert reason 10, GPS code 048.
 * Cleared once the battery is back BATTERY_HYSTERESIS points above the threshold (a new or
 * recharged battery), so readings wobbling around the threshold open it once.
 */
import { BEACON_REASON, GPS_CODE } from '../state/effects';
import type { DeviceInfo } from '../state/fleet';
import { clear, raise, type DeviceState } from '../state/subject-state';
import { BATTERY_HYSTERESIS, type RuleContext } from './context';
import { closeDeviceAlert, openDeviceAlert } from './device-alerts';

// shared, never mutated: no allocation per reading
const GPS_WHAT = Object.freeze({ code: GPS_CODE.lowBattery });
const BEACON_WHAT = Object.freeze({ reason: BEACON_REASON.battery });

export function batteryRule(ctx: RuleContext, d: DeviceInfo, s: DeviceState, battery: number, time: number): void {
  if (s.battery !== battery) {
    s.battery = battery;
    ctx.touchDevice(d, s);
  }
  const threshold = ctx.fleet.model(d)?.batteryThreshold;
  if (threshold === null || threshold === undefined) return;
  const what = d.kind === 'gps' ? GPS_WHAT : BEACON_WHAT;
  if (battery < threshold) {
    if (raise(s, 'battery', time))
      openDeviceAlert(ctx, d, time, what, `battery ${battery}% below ${threshold}%`, { battery }, { id: 'battery', params: { value: battery, threshold } });
  } else if (battery >= threshold + BATTERY_HYSTERESIS && clear(s, 'battery')) closeDeviceAlert(ctx, d, time, what);
}
