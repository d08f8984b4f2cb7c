import { DeviceStatusEnum } from '@rti/metadata/browser';
/**
 * A vehicle's live state as the monitor counts it: offline when its tracker is offline
 * (device status 20) or silent for longer than OFFLINE_AFTER_MS, moving when its last speed
 * is at least MOVING_KMH, stopped otherwise. Shared by the server calls and the live console.
 */
export const MOVING_KMH = 5;
export const OFFLINE_AFTER_MS = 30 * 60_000;
const DEVICE_OFFLINE = DeviceStatusEnum.offline;

export type Motion = 'moving' | 'stopped' | 'offline';

export function motionOf(v: { status: number | null; lastSeen: number | null; speed: number | null }, now = Date.now()): Motion {
  if (v.status === DEVICE_OFFLINE || v.lastSeen === null || now - v.lastSeen > OFFLINE_AFTER_MS) return 'offline';
  return (v.speed ?? 0) >= MOVING_KMH ? 'moving' : 'stopped';
}

/** Motion as a number for compact columns: 1 moving, 2 stopped, 3 offline. */
export const MOTION_CODE: Record<Motion, number> = { moving: 1, stopped: 2, offline: 3 };
