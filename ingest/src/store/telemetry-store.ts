/**
 * Where decoded rows end up. Two engines implement it: SQLite (embedded default, no server)
 * and InfluxDB over the v1 HTTP API. Writes come from one writer at a time, in journal order.
 */
import type { SeriesRow } from './series';

export interface SeriesBatch {
  series: string;
  rows: readonly SeriesRow[];
  /** each row's device slot (directory/device-slots.ts) when every row has one: lets the store and rules skip their key lookups */
  slots?: readonly number[];
}

export interface PointQuery {
  series: string;
  org: number;
  /** one device key or several; omitted = every device of the organisation */
  key?: string | readonly string[];
  /** epoch ms, inclusive */
  from?: number;
  /** epoch ms, inclusive */
  to?: number;
  /** 1-based */
  page?: number;
  limit?: number;
  /** newest first by default, like the console's logs */
  order?: 'asc' | 'desc';
}

export interface PointPage {
  list: SeriesRow[];
  total: number;
}

export interface TelemetryStore {
  readonly engine: string;
  init(): Promise<void>;
  /**
   * Writes the batches atomically where the engine allows it. `mark` is the highest journal
   * sequence number the batch covers; engines that can store it in the same transaction make
   * journal replay exactly-once (see appliedMark).
   */
  write(batches: readonly SeriesBatch[], mark?: number): Promise<void>;
  /** Highest mark written, or 0 when the engine does not keep one (replay is then idempotent by time). */
  appliedMark(): Promise<number>;
  query(q: PointQuery): Promise<PointPage>;
  /** Newest row of each listed device. */
  latest(series: string, org: number, keys: readonly string[]): Promise<SeriesRow[]>;
  /** Cheap liveness probe used while the store is considered down. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const MAX_PAGE_SIZE = 1000;

export function pageOf(q: PointQuery): { limit: number; offset: number } {
  const limit = Math.min(Math.max(1, Math.floor(q.limit ?? 10)), MAX_PAGE_SIZE);
  const page = Math.max(1, Math.floor(q.page ?? 1));
  return { limit, offset: (page - 1) * limit };
}

export function keysOf(q: PointQuery): readonly string[] | undefined {
  if (q.key === undefined) return undefined;
  return typeof q.key === 'string' ? [q.key] : q.key;
}
