/**
 * Pure helpers of the receiving panel (unit-tested in test/receiving-logic.test.ts): the
 * answer of `/receipt-detail/scan`, the receipt's counts and which status it is in.
 */

import { ReceiptLineStatusEnum, ReceiptStatusEnum } from '@rti/metadata/browser';

type Row = Record<string, unknown>;

/** One key the scan took: the line it matched (or added as extra) and that line's status now. */
export interface ScanAccepted {
  key: string;
  id: number;
  status: number | string;
}
/** One key the scan refused, with the server's reason (already in the user's language). */
export interface ScanRefused {
  key: string;
  reason?: number | string;
  message: string;
}
/** `POST /receipt-detail/scan { receiptId, keys?, containers? }` */
export interface ScanAnswer {
  accepted: ScanAccepted[];
  refused: ScanRefused[];
  /** the receipt after the scan (its roll-ups) */
  header?: Row;
}

const same = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);

/** Whether a line status (value or key) is `wanted` (value or key). */
export const isStatus = (status: unknown, value: number | string, key: string): boolean => same(status, value) || same(status, key);

/** What the scan did, for the feedback: received (matched a line), extra (not on the document), refused. */
export function scanSummary(answer: ScanAnswer): { received: number; extra: number; refused: number } {
  const extra = answer.accepted.filter((a) => isStatus(a.status, ReceiptLineStatusEnum.extra, 'extra')).length;
  return { received: answer.accepted.length - extra, extra, refused: answer.refused.length };
}

/** Whether a receipt still takes carriers (new or receiving): the scan box and line ticking show then. */
export const receiptOpen = (receipt: Row | undefined): boolean =>
  isStatus(receipt?.status, ReceiptStatusEnum.new, 'new') || isStatus(receipt?.status, ReceiptStatusEnum.receiving, 'receiving');

/** While receiving, others may scan too: the counts are read again every few seconds. */
export const receiptReceiving = (receipt: Row | undefined): boolean => isStatus(receipt?.status, ReceiptStatusEnum.receiving, 'receiving');

/**
 * The fresher of the page's receipt row and the one a scan answered with (by `updatedAt`; the
 * page's on a tie): the counts show the scan's result at once and the page's once it re-read.
 */
export function newerReceipt(page: Row, scanned: Row | undefined): Row {
  if (!scanned || String(scanned.id) !== String(page.id)) return page;
  const at = (r: Row) => Date.parse(String(r.updatedAt ?? '')) || 0;
  return at(scanned) > at(page) ? scanned : page;
}

export interface ReceiptCounts {
  expected: number;
  received: number;
  missing: number;
  extra: number;
}

/** The receipt's roll-ups (`expectedAmount`, …), 0 when absent. */
export function receiptCounts(receipt: Row | undefined): ReceiptCounts {
  const n = (f: string) => {
    const v = Number(receipt?.[f]);
    return Number.isFinite(v) ? v : 0;
  };
  return { expected: n('expectedAmount'), received: n('receivedAmount'), missing: n('missingAmount'), extra: n('extraAmount') };
}

/** How many lines a receive call took: its `accepted` list or a count when it sends one, else all asked. */
export function receivedCount(answer: unknown, asked: number): number {
  if (answer && typeof answer === 'object') {
    const a = answer as { accepted?: unknown[]; count?: unknown; changed?: unknown };
    if (Array.isArray(a.accepted)) return a.accepted.length;
    for (const v of [a.count, a.changed]) if (typeof v === 'number') return v;
  }
  return asked;
}
