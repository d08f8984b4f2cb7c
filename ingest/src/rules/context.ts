/** What every rule gets: the master data, the state maps and the effect outlet. */
import type { Effect } from '../state/effects';
import type { CarrierInfo, DeviceInfo, Fleet } from '../state/fleet';
import type { CarrierState, DeviceState } from '../state/subject-state';

export interface RuleContext {
  fleet: Fleet;
  emit(e: Effect): void;
  device(d: DeviceInfo): DeviceState;
  carrier(c: CarrierInfo): CarrierState;
  /** marks a subject for the next flush (columns, state table, live event) */
  touchDevice(d: DeviceInfo, s: DeviceState): void;
  touchCarrier(c: CarrierInfo, s: CarrierState): void;
}

export const MINUTE = 60_000;
/** SPEC §9: transmitter data missing after more than 60 minutes */
export const DATA_MISSING_MS = 60 * MINUTE;
/** SPEC §9: altitude change alert above 200 m */
export const ALTITUDE_CHANGE_M = 200;
/** default offline check when the device model sets none (minutes) */
export const DEFAULT_OFFLINE_MIN = 60;
/** battery must climb this many points above the threshold to clear (no flapping at the edge) */
export const BATTERY_HYSTERESIS = 5;
