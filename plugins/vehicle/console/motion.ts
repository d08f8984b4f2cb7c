/** Colours and labels of a vehicle's motion (shared/vehicle-status.ts), for tags and markers. */
import type { Motion } from '../shared/vehicle-status';

export const MOTIONS: Motion[] = ['moving', 'stopped', 'offline'];
export const MOTION_BY_CODE: Record<number, Motion> = { 1: 'moving', 2: 'stopped', 3: 'offline' };
export const MOTION_RGB: Record<Motion, [number, number, number]> = { moving: [82, 196, 26], stopped: [250, 140, 22], offline: [140, 140, 140] };
export const MOTION_TAG: Record<Motion, string> = { moving: 'success', stopped: 'warning', offline: 'default' };
export const motionRgb = (code: number): [number, number, number] => MOTION_RGB[MOTION_BY_CODE[code] ?? 'offline'];
