/** Pure parts: assign-date times, alert settings, cron checks, the repository's data matching. */
import { describe, expect, it } from 'vitest';
import { matchesSettings } from '../server/handlers/gps-alert-mail';
import { levelOf } from '../server/handlers/inventory-report';
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

describe('GPS alert settings', () => {
  const none = { battery: null, envTemperature: null, envHumidity: null, accSpeed: null };
  it('matches any breached setting, or everything when none is set', () => {
    const f = { battery: 15, temperature: 30, humidity: 50, acceleration: 0.5 };
    expect(matchesSettings(f, none)).toBe(true);
    expect(matchesSettings(f, { ...none, battery: 20 })).toBe(true);
    expect(matchesSettings(f, { ...none, battery: 10 })).toBe(false);
    expect(matchesSettings(f, { ...none, battery: 10, envTemperature: 30 })).toBe(true);
    expect(matchesSettings({ ...f, humidity: null }, { ...none, envHumidity: 40 })).toBe(false);
    expect(matchesSettings(f, { ...none, accSpeed: 0.5 })).toBe(true);
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

  it('grades inventory against min and max', () => {
    expect(levelOf(1, 2, 5)).toBe('below');
    expect(levelOf(6, 2, 5)).toBe('above');
    expect(levelOf(3, null, null)).toBe('normal');
  });

  it('keys unique queries canonically and matches partial data', () => {
    expect(uniqueKeyOf({ b: 1, a: 'x' })).toBe(uniqueKeyOf({ a: 'x', b: 1 }));
    expect(matchesData({ taskId: 3, orgId: 1, nested: { k: 1 } }, { taskId: 3 })).toBe(true);
    expect(matchesData({ taskId: 3 }, { taskId: 4 })).toBe(false);
    expect(matchesData({ nested: { k: 1, j: 2 } }, { nested: { k: 1 } })).toBe(true);
  });
});
