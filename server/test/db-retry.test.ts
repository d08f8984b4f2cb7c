/**
 * A transaction the database rolled back to break a lock cycle runs again; anything else
 * (a refusal, a bug) is thrown at once, and a victim past the last try keeps its error.
 */
import { describe, expect, it } from 'vitest';
import { isTransient, retryTransient, TRANSACTION_TRIES } from '../src/db/retry';

const victim = (errno: number) => Object.assign(new Error('Deadlock found when trying to get lock'), { parent: { errno } });

describe('retryTransient', () => {
  it('knows InnoDB deadlock victims and lock wait time-outs under the Sequelize wrapper', () => {
    expect(isTransient(victim(1213))).toBe(true);
    expect(isTransient({ original: { errno: 1205 } })).toBe(true);
    expect(isTransient(victim(1062))).toBe(false);
    expect(isTransient(new Error('x'))).toBe(false);
    expect(isTransient(null)).toBe(false);
  });

  it('runs a victim again until it gets through', async () => {
    let runs = 0;
    const value = await retryTransient(async () => {
      if (++runs < 3) throw victim(1213);
      return 'done';
    });
    expect(value).toBe('done');
    expect(runs).toBe(3);
  });

  it('throws other errors at once, and the last victim after the last try', async () => {
    let runs = 0;
    await expect(
      retryTransient(async () => {
        runs++;
        throw victim(1062);
      }),
    ).rejects.toThrow(/Deadlock/);
    expect(runs).toBe(1);
    runs = 0;
    await expect(
      retryTransient(async () => {
        runs++;
        throw victim(1213);
      }),
    ).rejects.toMatchObject({ parent: { errno: 1213 } });
    expect(runs).toBe(TRANSACTION_TRIES);
  });
});
