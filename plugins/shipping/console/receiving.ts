/**
 * Pure helpers of "Receive selected" (unit-tested in test/receiving-logic.test.ts). The scan
 * panel with the receipt's counts is the platform's, from the receipt lines' `scan` metadata.
 */

import { ReceiptStatusEnum } from '@rti/metadata/browser';

type Row = Record<string, unknown>;

const same = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);

/** Whether a status (value or key) is `wanted` (value or key). */
export const isStatus = (status: unknown, value: number | string, key: string): boolean => same(status, value) || same(status, key);

/** Whether a receipt still takes carriers (new or receiving): line ticking shows then. */
export const receiptOpen = (receipt: Row | undefined): boolean =>
  isStatus(receipt?.status, ReceiptStatusEnum.new, 'new') || isStatus(receipt?.status, ReceiptStatusEnum.receiving, 'receiving');

/** How many lines a receive call took: its `accepted` list or a count when it sends one, else all asked. */
export function receivedCount(answer: unknown, asked: number): number {
  if (answer && typeof answer === 'object') {
    const a = answer as { accepted?: unknown[]; count?: unknown; changed?: unknown };
    if (Array.isArray(a.accepted)) return a.accepted.length;
    for (const v of [a.count, a.changed]) if (typeof v === 'number') return v;
  }
  return asked;
}
