/** Transitions and documents in metadata: what the checks refuse, and the helpers server and console share. */
import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../src/load';
import { apiCode } from '../src/permissions';
import {
  numberPatternProblem,
  numberScope,
  renderNumber,
  resourceTransitions,
  statusCalls,
  transitionAllowed,
  transitionApiPath,
  transitionInputs,
} from '../src/transitions';
import { edit, faultsOf, scratchCopy } from './helpers';

const BIND = 'resources/carrier/carrier-bind.json';
const ALERT = 'resources/monitor/carrier-alert.json';

describe('transitions', () => {
  const meta = loadMetadata();

  it('derive one call path and one permission code per step (SPEC paths where SPEC names them)', () => {
    const codes = (name: string) => resourceTransitions(meta.resources[name]).map((t) => apiCode(t.path));
    expect(codes('carrier-alert')).toEqual(['ApiCarrierAlertProcess']);
    expect(codes('device-beacon-alert')).toEqual(['ApiDeviceAlertBeaconProcess']);
    expect(codes('carrier-bind')).toEqual(['ApiCarrierBindRelease', 'ApiCarrierBindClose']);
    // rules.statusUpdate is the step statusUpdate at /<prefix>/status/update
    expect(resourceTransitions(meta.resources.carrier).map((t) => [t.name, t.path])).toEqual([['statusUpdate', '/carrier/status/update']]);
    expect(transitionApiPath({ name: 'ship-plan' }, { name: 'updateStatus' })).toBe('/ship-plan/update-status');
    expect(transitionApiPath({ name: 'ship-plan' }, { name: 'release', path: '/ship-plan/updatestatus' })).toBe('/ship-plan/updatestatus');
  });

  it('a step starts only from its statuses; inputs resolve to fields', () => {
    const [release] = resourceTransitions(meta.resources['carrier-bind']);
    expect(transitionAllowed(release, { status: 10 })).toBe(true);
    expect(transitionAllowed(release, { status: '10' })).toBe(true);
    expect(transitionAllowed(release, { status: 20 })).toBe(false);
    expect(transitionAllowed(release, undefined)).toBe(false);
    const [process] = resourceTransitions(meta.resources['carrier-alert']);
    expect(transitionInputs(meta.resources['carrier-alert'], process).map((i) => [i.field.name, i.writes])).toEqual([['remark', true]]);
  });

  it('bad declarations are faults naming file and pointer', () => {
    const dir = scratchCopy();
    edit(dir, BIND, (r) => {
      r.transitions.push({ name: 'release', field: 'status', from: [10], to: 20 });
      r.transitions.push({ name: 'ship', field: 'remark', from: [99], to: 10, stamp: { time: 'remark' }, inputs: ['nope'] });
      r.transitions.push({ name: 'list', field: 'status', from: [10], to: 10 });
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/2/name', problem: expect.stringContaining('duplicate step "release"') }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/3/field', problem: 'a transition moves an enum field; "remark" is text' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/3/inputs/0', problem: 'transition input "nope" is not a field of carrier-bind' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/3/stamp/time', problem: 'a time stamp needs a datetime field; "remark" is text' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/4/name', problem: '/carrier-bind/list is a generated call of carrier-bind' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/4/to', problem: expect.stringContaining('also a "from" status') }),
    );
  });

  it('a shared status call dispatches by target: one step per target, one field, its own path', () => {
    const calls = (name: string) => [...statusCalls(meta.resources[name])].map(([path, steps]) => [path, steps.map((t) => [t.name, t.to])]);
    expect(calls('delivery')).toEqual([
      [
        '/delivery/updatestatus',
        [
          ['load', 20],
          ['release', 30],
          ['close', 40],
        ],
      ],
    ]);
    expect(calls('receipt')).toEqual([
      [
        '/receipt/updatestatus',
        [
          ['receive', 20],
          ['close', 30],
        ],
      ],
    ]);
    const dir = scratchCopy();
    edit(dir, BIND, (r) => {
      for (const t of r.transitions) t.statusCall = '/carrier-bind/updatestatus';
      r.transitions.push({ name: 'again', statusCall: '/carrier-bind/updatestatus', field: 'status', from: [10], to: r.transitions[0].to });
      r.transitions.push({ name: 'clash', statusCall: '/carrier-bind/release', field: 'status', from: [10], to: r.transitions[0].to });
      r.transitions.push({ name: 'listed', statusCall: '/carrier-bind/list', field: 'status', from: [20], to: 10 });
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({
        file: BIND,
        pointer: '/transitions/2/to',
        problem: expect.stringContaining('also the target of /transitions/0 on /carrier-bind/updatestatus'),
      }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/3/statusCall', problem: '/carrier-bind/release is the call of a step' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/transitions/4/statusCall', problem: '/carrier-bind/list is a generated call of carrier-bind' }),
    );
  });

  it('a status outside the enum is refused', () => {
    const dir = scratchCopy();
    edit(dir, ALERT, (r) => (r.transitions[0].to = 99));
    expect(faultsOf(() => loadMetadata(dir))).toContainEqual({ file: ALERT, pointer: '/transitions/0/to', problem: '99 is not a value of enum "alertStatus"' });
  });
});

describe('documents', () => {
  it('bad roll-ups, freeze rules and numbers are faults', () => {
    const dir = scratchCopy();
    edit(dir, BIND, (r) => {
      r.children[0].rollUps.push(
        { field: 'remark', kind: 'sum', of: 'qty' },
        { field: 'totalAmount', kind: 'sum', of: 'remark' },
        { field: 'totalAmount', kind: 'sum' },
      );
      r.children[0].editableWhen.values = [10, 77];
      r.number.pattern = 'BD{date:YYYYMMDD}';
      r.fields[0].required = true;
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/children/0/rollUps/1/field', problem: 'a roll-up field must be int or decimal; "remark" is text' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/children/0/rollUps/2/of', problem: 'only int and decimal fields can be summed; "remark" is text' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/children/0/rollUps/3', problem: 'a sum roll-up names the line field it sums in "of"' }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BIND, pointer: '/children/0/editableWhen/values/1', problem: '77 is not a value of enum "carrierBindStatus"' }),
    );
    expect(faults).toContainEqual(expect.objectContaining({ file: BIND, pointer: '/number/pattern', problem: 'needs exactly one {seq:N}' }));
    expect(faults).toContainEqual(expect.objectContaining({ file: BIND, pointer: '/number/field', problem: expect.stringContaining('must not be required') }));
  });

  it('numbers: the sequence counts per rendered prefix, padded to its width', () => {
    const at = new Date(2026, 0, 5, 12);
    expect(numberScope('BD{date:YYYYMMDD}{seq:4}', at)).toBe('BD20260105{seq}');
    expect(renderNumber('BD{date:YYYYMMDD}{seq:4}', 'BD20260105{seq}', 7)).toBe('BD202601050007');
    expect(renderNumber('SO-{date:YY-MM}-{seq:3}', numberScope('SO-{date:YY-MM}-{seq:3}', at), 12345)).toBe('SO-26-01-12345');
    expect(numberPatternProblem('X{seq:0}')).toBe('{seq:N} needs a width N of 1 to 12');
    expect(numberPatternProblem('X{date:hh}{seq:3}')).toContain('{date:hh}');
    expect(numberPatternProblem('X{week}{seq:3}')).toContain('unknown {…} placeholder');
    expect(numberPatternProblem('PO{date:YYYY}{seq:5}')).toBeUndefined();
  });
});
