/** Step guards (transitions[].guard, M17) in metadata: what the checks refuse, and the shared helper. */
import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../src/load';
import { guardStopsUser } from '../src/transitions';
import type { ResourceDef } from '../src/types';
import { edit, faultsOf, scratchCopy } from './helpers';

const BIND = 'resources/carrier/carrier-bind.json';

describe('step guards', () => {
  it("a guard names a field recording a user, not the step's own stamp, and at least one condition", () => {
    const dir = scratchCopy();
    edit(dir, BIND, (r) => {
      r.fields.push({ name: 'releasedBy', type: 'string', maxLength: 50, readOnly: true });
      r.transitions[0].stamp = { user: 'releasedBy' };
      r.transitions[0].guard = { notUser: 'releasedBy' };
      r.transitions[1].guard = { notUser: 'nope', permission: 'ApiCarrierBindDelete' };
      r.transitions.push({ name: 'audit', field: 'status', from: [20], to: 10, guard: { notUser: 'status' } });
      r.transitions.push({ name: 'check', field: 'status', from: [30], to: 10, guard: {} });
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/0/guard/notUser', problem: expect.stringContaining("this step's own stamp") }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/1/guard/notUser', problem: '"nope" is not a field of carrier-bind' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/2/guard/notUser', problem: expect.stringContaining('"status" is enum') }),
    );
    expect(faults.some((f) => f.file === BIND && f.pointer.startsWith('/transitions/3/guard'))).toBe(true);
  });

  it('a well-formed guard loads', () => {
    const dir = scratchCopy();
    edit(dir, BIND, (r) => {
      r.fields.push({ name: 'releasedBy', type: 'string', maxLength: 50, readOnly: true });
      r.transitions[0].stamp = { user: 'releasedBy' };
      r.transitions[0].guard = { permission: 'ApiCarrierBindDelete' };
      r.transitions[1].guard = { notUser: 'releasedBy' };
    });
    const meta = loadMetadata(dir);
    expect(meta.resources['carrier-bind'].transitions![1].guard).toEqual({ notUser: 'releasedBy' });
  });

  it('guardStopsUser compares ids for int/ref fields and the stamped name for string fields', () => {
    const res = {
      name: 'x',
      titleField: 'no',
      fields: [
        { name: 'byName', type: 'string' },
        { name: 'byId', type: 'ref' },
      ],
    } as unknown as ResourceDef;
    const alice = { id: 7, username: 'alice', realName: 'Alice Wang' };
    expect(guardStopsUser(res, { guard: { notUser: 'byName' } }, { byName: 'Alice Wang' }, alice)).toBe(true);
    expect(guardStopsUser(res, { guard: { notUser: 'byName' } }, { byName: 'Bob' }, alice)).toBe(false);
    expect(guardStopsUser(res, { guard: { notUser: 'byId' } }, { byId: 7 }, alice)).toBe(true);
    expect(guardStopsUser(res, { guard: { notUser: 'byId' } }, { byId: null }, alice)).toBe(false);
    expect(guardStopsUser(res, { guard: { notUser: 'byId' } }, { byId: 7 }, null)).toBe(false);
    expect(guardStopsUser(res, {}, { byId: 7 }, alice)).toBe(false);
  });
});
