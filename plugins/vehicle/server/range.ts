/** Time ranges of the vehicle calls: the server's one time-range parameter (`time: [from, to]`, ISO or epoch ms). */
import { parseTimeRange } from '@rti/server/plugin-api';

/** [from, to]; default the last `defaultDays` days; at most `maxDays`. */
export function parseRange(body: Record<string, unknown>, defaultDays: number, maxDays: number, now = Date.now()): { from: number; to: number } {
  return parseTimeRange(body, { defaultDays, maxDays }, now);
}
