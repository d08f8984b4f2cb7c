/**
 * Suggestions (SPEC §9 suggestion types: beacon 10, server/disk 20): recharge or replace
 * beacons in the low battery band, and clear space on a disk above the threshold. Each comes
 * as an i18n key with parameters; the console words it in the user's language.
 */
import type { BatteryBands } from '@rti/common';
import type { DiskInfo } from './disk';

export const SUGGESTION_TYPE = { beacon: 10, disk: 20 } as const;
/** disk usage (%) from which clearing space is suggested */
export const DISK_WARN_USAGE = 80;

export interface Suggestion {
  type: number;
  level: 'warning' | 'error';
  key: string;
  params: Record<string, string | number>;
}

export function suggestions(battery: BatteryBands, disks: DiskInfo[], lowSns: string[]): Suggestion[] {
  const out: Suggestion[] = [];
  const low = battery.bands.find((b) => b.band === 'low')?.count ?? 0;
  if (low > 0) {
    out.push({ type: SUGGESTION_TYPE.beacon, level: 'warning', key: 'systemInspection.suggest.recharge', params: { count: low, sns: lowSns.join(', ') } });
  }
  for (const d of disks) {
    if (d.usage >= DISK_WARN_USAGE) {
      out.push({
        type: SUGGESTION_TYPE.disk,
        level: d.usage >= 95 ? 'error' : 'warning',
        key: 'systemInspection.suggest.clearDisk',
        params: { path: d.path, usage: d.usage },
      });
    }
  }
  return out;
}
