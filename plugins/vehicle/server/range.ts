/** Time ranges of the vehicle calls: the server's one time-range parameter (`time: [from, to]`, ISO or epoch ms). */
import { invalid, parseTimeRange } from '@rti/server/plugin-api';

/** [from, to]; default the last `defaultDays` days; at most `maxDays`. */
export function parseRange(body: Record<string, unknown>, defaultDays: number, maxDays: number, now = Date.now()): { from: number; to: number } {
  return parseTimeRange(body, { defaultDays, maxDays }, now);
}

export const optId = (v: unknown): number | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw invalid('type', 'id', { expected: 'integer' });
  return n;
};

/** Minutes east of UTC from the body (`tz`), for local calendar days; 0 when absent. */
export function tzOf(body: Record<string, unknown>): number {
  const tz = Number(body.tz ?? 0);
  if (!Number.isFinite(tz) || Math.abs(tz) > 14 * 60) throw invalid('valueBetween', 'tz', { min: -840, max: 840 });
  return tz;
}
