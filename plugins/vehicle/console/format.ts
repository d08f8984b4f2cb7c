/** Display helpers of the vehicle screens. */
import { formatDateTime } from '@rti/console/plugin-api';

export const fmtTime = (v: string | number | null | undefined) => formatDateTime(v, 'datetime', '—');
export const fmtNum = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '—' : v.toFixed(digits));
/** milliseconds as h:mm */
export function fmtDuration(ms: number): string {
  const m = Math.round(ms / 60_000);
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}
/** minutes east of UTC, as the report calls expect */
export const tzOffset = () => -new Date().getTimezoneOffset();

export function boundsOf(lng: readonly number[], lat: readonly number[]): [number, number, number, number] | undefined {
  if (!lng.length) return undefined;
  let w = 180,
    s = 90,
    e = -180,
    n = -90;
  for (let i = 0; i < lng.length; i++) {
    w = Math.min(w, lng[i]);
    e = Math.max(e, lng[i]);
    s = Math.min(s, lat[i]);
    n = Math.max(n, lat[i]);
  }
  return [w, s, e, n];
}
