/** Pure logic of the receiving panel: the scan answer's summary, the receipt's counts and status. */
import { describe, expect, it } from 'vitest';
import { isStatus, newerReceipt, receiptCounts, receiptOpen, receiptReceiving, receivedCount, scanSummary } from '../console/receiving';

describe('receiving panel logic', () => {
  it('sums a scan answer: matched lines received, keys not on the order extra, refusals', () => {
    const answer = {
      accepted: [
        { key: 'C-1', id: 1, status: 20 },
        { key: 'C-2', id: 2, status: 'received' },
        { key: 'X-9', id: 9, status: 40 },
      ],
      refused: [{ key: 'C-1', reason: 60, message: 'C-1: scanned twice' }],
    };
    expect(scanSummary(answer)).toEqual({ received: 2, extra: 1, refused: 1 });
    expect(scanSummary({ accepted: [{ key: 'X', id: 3, status: 'extra' }], refused: [] })).toEqual({ received: 0, extra: 1, refused: 0 });
  });

  it('reads the roll-ups, 0 when absent', () => {
    expect(receiptCounts({ expectedAmount: 3, receivedAmount: '2', missingAmount: null, extraAmount: 1 })).toEqual({
      expected: 3,
      received: 2,
      missing: 0,
      extra: 1,
    });
    expect(receiptCounts(undefined)).toEqual({ expected: 0, received: 0, missing: 0, extra: 0 });
  });

  it('open while new or receiving (values or keys), live only while receiving', () => {
    expect([10, 20, 30, 'new', 'receiving', 'closed', undefined].map((status) => receiptOpen({ status }))).toEqual([
      true,
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
    expect([10, 20, 30].map((status) => receiptReceiving({ status }))).toEqual([false, true, false]);
    expect(isStatus(null, 10, 'new')).toBe(false);
  });

  it('shows the fresher receipt: a scan answer until the page has read the row again', () => {
    const page = { id: 5, updatedAt: '2026-11-26T10:00:00.000Z', receivedAmount: 1 };
    const scanned = { id: 5, updatedAt: '2026-11-26T10:00:02.000Z', receivedAmount: 2 };
    expect(newerReceipt(page, scanned)).toBe(scanned);
    expect(newerReceipt({ ...page, updatedAt: scanned.updatedAt }, scanned).receivedAmount).toBe(1);
    expect(newerReceipt(page, undefined)).toBe(page);
    expect(newerReceipt(page, { ...scanned, id: 6 })).toBe(page);
  });

  it('counts what a receive call took from its answer, else what was asked', () => {
    expect(receivedCount({ accepted: [{}, {}] }, 5)).toBe(2);
    expect(receivedCount({ count: 3 }, 5)).toBe(3);
    expect(receivedCount(null, 4)).toBe(4);
  });
});
