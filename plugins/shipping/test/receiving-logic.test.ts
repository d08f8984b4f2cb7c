/** Pure logic of "Receive selected": the receipt's status and what a receive call took. */
import { describe, expect, it } from 'vitest';
import { isStatus, receiptOpen, receivedCount } from '../console/receiving';

describe('receiving panel logic', () => {
  it('open while new or receiving (values or keys)', () => {
    expect([10, 20, 30, 'new', 'receiving', 'closed', undefined].map((status) => receiptOpen({ status }))).toEqual([
      true,
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(isStatus(null, 10, 'new')).toBe(false);
  });

  it('counts what a receive call took from its answer, else what was asked', () => {
    expect(receivedCount({ accepted: [{}, {}] }, 5)).toBe(2);
    expect(receivedCount({ count: 3 }, 5)).toBe(3);
    expect(receivedCount(null, 4)).toBe(4);
  });
});
