/**
 * Pure parts: assign-date times, cron checks, the repository's data matching. (The GPS alert
 * settings and inventory levels moved with their reports: plugins/monitor, plugins/master-data.)
 */
import { describe, expect, it } from 'vitest';
import { matchesData, uniqueKeyOf } from '../server/sql-job-repository';
import { firstRunOn } from '../server/task-jobs';
import { isValidCron } from '../server/task-rules';
import { recipientsOf } from '../server/task';

describe('firstRunOn (assign-date types)', () => {
  it('takes the cron time of that day in the scheduler zone', () => {
    expect(firstRunOn('2026-12-01', '0 8 * * *', 'Asia/Shanghai')!.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(firstRunOn('2026-12-01', '30 7 * * *', 'UTC')!.toISOString()).toBe('2026-12-01T07:30:00.000Z');
  });

  it('falls back to the start of the day when the cron has no time that day', () => {
    // 2026-12-01 is a Tuesday; the cron fires on Mondays only
    expect(firstRunOn('2026-12-01', '0 8 * * 1', 'Asia/Shanghai')!.toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(firstRunOn('not-a-date', '0 8 * * *', 'UTC')).toBeNull();
  });
});

describe('small rules', () => {
  it('reads crons of five and six fields and refuses the rest', () => {
    expect(isValidCron('0 8 * * *', 'UTC')).toBe(true);
    expect(isValidCron('*/1 * * * * *', 'UTC')).toBe(true);
    expect(isValidCron('61 * * * *', 'UTC')).toBe(false);
    expect(isValidCron('a b c d e', 'UTC')).toBe(false);
  });

  it('splits recipients on commas, semicolons and spaces', () => {
    expect(recipientsOf(' a@x.com, b@y.org;c@z.net  d@w.io ')).toEqual(['a@x.com', 'b@y.org', 'c@z.net', 'd@w.io']);
    expect(recipientsOf(null)).toEqual([]);
  });

  it('keys unique queries canonically and matches partial data', () => {
    expect(uniqueKeyOf({ b: 1, a: 'x' })).toBe(uniqueKeyOf({ a: 'x', b: 1 }));
    expect(matchesData({ taskId: 3, orgId: 1, nested: { k: 1 } }, { taskId: 3 })).toBe(true);
    expect(matchesData({ taskId: 3 }, { taskId: 4 })).toBe(false);
    expect(matchesData({ nested: { k: 1, j: 2 } }, { nested: { k: 1 } })).toBe(true);
  });
});
