/** Time ranges of the vehicle calls: `time: [from, to]` (ISO or epoch ms), checked like the map's. */
import { ApiError, ErrorCode, tKey } from '@rti/server/plugin-api';

const DAY = 86_400_000;

function time(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Date.parse(String(v));
  if (!Number.isFinite(n)) throw new ApiError(ErrorCode.validation, 'validation.type', { name: tKey(`fields.${field}`), type: tKey('validation.types.datetime') }, 400);
  return n;
}

/** [from, to]; default the last `defaultDays` days; at most `maxDays`. */
export function parseRange(body: Record<string, unknown>, defaultDays: number, maxDays: number, now = Date.now()): { from: number; to: number } {
  const t = Array.isArray(body.time) ? body.time : [body.startTime, body.endTime];
  const to = time(t[1], 'endTime') ?? now;
  const from = time(t[0], 'startTime') ?? to - defaultDays * DAY;
  if (from >= to) throw new ApiError(ErrorCode.validation, 'validation.earlier', { earlier: tKey('fields.startTime'), later: tKey('fields.endTime') });
  if (to - from > maxDays * DAY) throw new ApiError(ErrorCode.validation, 'validation.valueBetween', { name: tKey('fields.time'), min: 1, max: maxDays });
  return { from, to };
}

export const optId = (v: unknown): number | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new ApiError(ErrorCode.validation, 'validation.type', { name: tKey('fields.id'), type: tKey('validation.types.integer') }, 400);
  return n;
};

/** Minutes east of UTC from the body (`tz`), for local calendar days; 0 when absent. */
export function tzOf(body: Record<string, unknown>): number {
  const tz = Number(body.tz ?? 0);
  if (!Number.isFinite(tz) || Math.abs(tz) > 14 * 60) throw new ApiError(ErrorCode.validation, 'validation.valueBetween', { name: 'tz', min: -840, max: 840 });
  return tz;
}
