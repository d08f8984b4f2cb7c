import { describe, expect, it } from 'vitest';
import { deleteForbidden, editForbidden, statusTargets } from '../src/meta/lib/status-rules';
import { hasCall, routeId } from '../src/meta/lib/resource-calls';
import { thing } from './meta-fixture';

describe('status rules and calls', () => {
  const res = {
    ...thing,
    calls: { export: false },
    rules: {
      editForbidden: [{ field: 'status', values: [20], message: 'rules.closed' }],
      deleteForbidden: [{ field: 'status', values: ['10', 20], message: 'rules.inUse' }],
    },
  };
  it('refuses edit and delete in the listed statuses, numbers and strings alike', () => {
    expect(editForbidden(res, { status: 20 })?.message).toBe('rules.closed');
    expect(editForbidden(res, { status: 10 })).toBeUndefined();
    expect(deleteForbidden(res, { status: 10 })?.message).toBe('rules.inUse');
    expect(deleteForbidden(res, undefined)).toBeUndefined();
  });
  it('knows which generated calls a resource answers', () => {
    expect(hasCall(res, 'export')).toBe(false);
    expect(hasCall(res, 'delete')).toBe(true);
  });
});

describe('route ids', () => {
  it('turns numeric URL ids back into numbers and keeps other ids', () => {
    expect(routeId('101')).toBe(101);
    expect(routeId('a1b2')).toBe('a1b2');
    expect(routeId(undefined)).toBeUndefined();
  });
});

describe('status transitions', () => {
  const values = [{ value: 10 }, { value: 20 }, { value: 30 }];
  it('offers the declared transitions from the current value', () => {
    const res = { ...thing, rules: { statusUpdate: { field: 'status', transitions: { '10': [20, 30], '20': [30], '30': [20] } } } };
    expect(statusTargets(res, { status: 10 }, values)).toEqual([20, 30]);
    expect(statusTargets(res, { status: '20' }, values)).toEqual([30]);
    expect(statusTargets(res, { status: 40 }, values)).toEqual([]);
  });
  it('offers every other value without declared transitions, nothing without the rule', () => {
    expect(statusTargets({ ...thing, rules: { statusUpdate: { field: 'status' } } }, { status: 20 }, values)).toEqual([10, 30]);
    expect(statusTargets(thing, { status: 20 }, values)).toEqual([]);
  });
});
