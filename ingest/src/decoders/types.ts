import type { RejectReason } from '../reasons';
import type { SeriesRow } from '../store/series';

/** What a decoder produced from one payload: rows of one series, ready to store. */
export interface DecodedFrame {
  series: string;
  org: number;
  /** device that sent the frame (gateway mac, gps sn) */
  source: string;
  rows: SeriesRow[];
  /** each row's device slot (directory/device-slots.ts), when the decoder looked the devices up */
  slots?: number[];
  /** readings dropped inside an otherwise good frame, by reason */
  dropped?: Partial<Record<RejectReason, number>>;
}

export interface DecodeContext {
  org: number;
  /** device named by the topic (or the HTTP path) */
  source: string;
  receivedAt: number;
  maxBytes: number;
  maxReadings: number;
  /** registered-device filter; readings of unknown devices are dropped and counted */
  known?: (key: string) => boolean;
  /** like `known`, returning the device's slot (undefined = not registered) */
  slot?: (key: string) => number | undefined;
}

export type DecodeResult = DecodedFrame | { reject: RejectReason; detail?: string };

export function isReject(r: DecodeResult): r is { reject: RejectReason; detail?: string } {
  return (r as { reject?: RejectReason }).reject !== undefined;
}

export function countDrop(frame: DecodedFrame, reason: RejectReason): void {
  const d = (frame.dropped ??= {});
  d[reason] = (d[reason] ?? 0) + 1;
}
