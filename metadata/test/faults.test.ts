import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MetadataError, loadMetadata } from '../src/load';
import { edit, faultsOf, scratchCopy } from './helpers';

const BEACON = 'resources/device/device-beacon.json';
const fieldIndex = (res: { fields: Array<{ name: string }> }, name: string) => res.fields.findIndex((f) => f.name === name);

describe('metadata faults name the file and the JSON pointer', () => {
  it('a scratch copy of the repository metadata loads clean', () => {
    expect(() => loadMetadata(scratchCopy())).not.toThrow();
  });

  it('schema violation: unknown field type', () => {
    const dir = scratchCopy();
    edit(dir, BEACON, (r) => (r.fields[3].type = 'reference'));
    expect(faultsOf(() => loadMetadata(dir))).toContainEqual(
      expect.objectContaining({ file: BEACON, pointer: '/fields/3/type', problem: expect.stringContaining('must be one of') }),
    );
  });

  it('schema violation: a misspelt property is caught', () => {
    const dir = scratchCopy();
    edit(dir, BEACON, (r) => (r.fields[0].maxLenght = 10));
    expect(faultsOf(() => loadMetadata(dir))).toContainEqual({ file: BEACON, pointer: '/fields/0/maxLenght', problem: 'unknown property' });
  });

  it('schema violation: a missing required property', () => {
    const dir = scratchCopy();
    edit(dir, BEACON, (r) => delete r.titleField);
    expect(faultsOf(() => loadMetadata(dir))).toContainEqual({ file: BEACON, pointer: '/', problem: 'missing required property "titleField"' });
  });

  it('a prefix search suits a string field only (its index is a short code, not free text)', () => {
    const dir = scratchCopy();
    edit(dir, BEACON, (r) => {
      r.fields[fieldIndex(r, 'sn')].search = 'prefix';
      r.fields[fieldIndex(r, 'remark')].search = 'prefix';
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual({ file: BEACON, pointer: '/fields/13/search', problem: expect.stringContaining('does not suit type text') });
    expect(faults.filter((f) => f.file === BEACON && f.pointer === '/fields/0/search')).toEqual([]);
  });

  it('textFrom names a json field of the resource, on a string or text field', () => {
    const dir = scratchCopy();
    const ALERT = 'resources/monitor/carrier-alert.json';
    let message = 0;
    edit(dir, ALERT, (r) => {
      message = fieldIndex(r, 'message');
      r.fields[message].textFrom = 'carrierSn';
      r.fields[fieldIndex(r, 'createdTime')].textFrom = 'messageKey';
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual({ file: ALERT, pointer: `/fields/${message}/textFrom`, problem: '"carrierSn" is not a json field of carrier-alert' });
    expect(faults).toContainEqual(expect.objectContaining({ file: ALERT, problem: 'textFrom applies to string and text fields only' }));
  });

  it('unknown enum', () => {
    const dir = scratchCopy();
    let i = 0;
    edit(dir, BEACON, (r) => {
      i = fieldIndex(r, 'useStatus');
      r.fields[i].enum = 'deviceUsageStatus';
    });
    expect(faultsOf(() => loadMetadata(dir))).toContainEqual({ file: BEACON, pointer: `/fields/${i}/enum`, problem: 'unknown enum "deviceUsageStatus"' });
  });

  it('bad ref: unknown resource and unknown label field', () => {
    const dir = scratchCopy();
    let model = 0;
    let project = 0;
    edit(dir, BEACON, (r) => {
      model = fieldIndex(r, 'deviceModelId');
      project = fieldIndex(r, 'projectId');
      r.fields[model].ref.resource = 'device-type';
      r.fields[project].ref.label = 'title';
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual({ file: BEACON, pointer: `/fields/${model}/ref/resource`, problem: 'unknown resource "device-type"' });
    expect(faults).toContainEqual({ file: BEACON, pointer: `/fields/${project}/ref/label`, problem: '"title" is not a field of project' });
  });

  it('bad default: not a value of the enum, wrong type, over maxLength', () => {
    const dir = scratchCopy();
    const idx: Record<string, number> = {};
    edit(dir, BEACON, (r) => {
      for (const n of ['useStatus', 'startTime', 'name']) idx[n] = fieldIndex(r, n);
      r.fields[idx.useStatus].default = 15;
      r.fields[idx.startTime].default = 'yesterday';
      r.fields[idx.name].default = 'x'.repeat(51);
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BEACON, pointer: `/fields/${idx.useStatus}/default`, problem: expect.stringContaining('10, 20, 30') }),
    );
    expect(faults).toContainEqual(expect.objectContaining({ file: BEACON, pointer: `/fields/${idx.startTime}/default` }));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BEACON, pointer: `/fields/${idx.name}/default`, problem: expect.stringContaining('maxLength 50') }),
    );
  });

  it('file name must equal name, folder must equal module', () => {
    const dir = scratchCopy();
    renameSync(join(dir, BEACON), join(dir, 'resources/device/beacon.json'));
    mkdirSync(join(dir, 'resources/devices'));
    renameSync(join(dir, 'resources/device/device-gps.json'), join(dir, 'resources/devices/device-gps.json'));
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual({ file: 'resources/device/beacon.json', pointer: '/name', problem: '"device-beacon" must equal the file name "beacon"' });
    expect(faults).toContainEqual({ file: 'resources/devices/device-gps.json', pointer: '/module', problem: '"device" must equal the folder name "devices"' });
  });

  it('menu item referencing a missing resource', () => {
    const dir = scratchCopy();
    let g = 0;
    edit(dir, 'menu.json', (m) => {
      g = m.groups.findIndex((x: { key: string }) => x.key === 'device');
      m.groups[g].items.push({ path: '/device/device-sensor', label: 'menu.device', resource: 'device-sensor' });
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({
        file: 'menu.json',
        pointer: expect.stringMatching(new RegExp(`^/groups/${g}/items/\\d+/resource$`)),
        problem: 'unknown resource "device-sensor"',
      }),
    );
  });

  it('module that is not a menu group, and fields the resource lacks', () => {
    const dir = scratchCopy();
    edit(dir, BEACON, (r) => {
      r.module = 'sensors';
      r.titleField = 'serial';
      r.paletteSearch = 'serial';
      r.import.columns.push('battery2');
    });
    edit(dir, 'resources/basic-info/warehouse.json', (r) => (r.rules.compare[0].right = 'maximum'));
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: BEACON, pointer: '/module', problem: expect.stringContaining('"sensors" is not a menu group key') }),
    );
    expect(faults).toContainEqual({ file: BEACON, pointer: '/titleField', problem: 'titleField "serial" is not a field of device-beacon' });
    expect(faults).toContainEqual({ file: BEACON, pointer: '/paletteSearch', problem: 'paletteSearch "serial" is not a field of device-beacon' });
    expect(faults).toContainEqual(expect.objectContaining({ file: BEACON, pointer: expect.stringMatching(/^\/import\/columns\/\d+$/) }));
    expect(faults).toContainEqual(expect.objectContaining({ file: 'resources/basic-info/warehouse.json', pointer: '/rules/compare/0/right' }));
  });

  it('duplicate field names', () => {
    const dir = scratchCopy();
    let n = 0;
    edit(dir, BEACON, (r) => {
      r.fields.push({ name: 'mac', type: 'string' });
      n = r.fields.length - 1;
    });
    expect(faultsOf(() => loadMetadata(dir))).toContainEqual(
      expect.objectContaining({ file: BEACON, pointer: `/fields/${n}/name`, problem: expect.stringContaining('duplicate field name "mac"') }),
    );
  });

  it('malformed JSON file, and the rest is still checked', () => {
    const dir = scratchCopy();
    writeFileSync(join(dir, 'resources/system/role.json'), '{ "name": "role", ');
    edit(dir, BEACON, (r) => (r.fields[0].type = 'strin'));
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: 'resources/system/role.json', pointer: '/', problem: expect.stringContaining('malformed JSON') }),
    );
    expect(faults).toContainEqual(expect.objectContaining({ file: BEACON, pointer: '/fields/0/type' }));
    // user.roleIds refers to the unreadable role file: not reported a second time
    expect(faults.filter((f) => f.problem.includes('"role"'))).toEqual([]);
  });

  it('lists every fault in one message, one per line', () => {
    const dir = scratchCopy();
    edit(dir, BEACON, (r) => {
      r.fields[0].type = 'strin';
      r.paletteSearch = 'serial';
    });
    edit(dir, 'enums.json', (e) => e.deviceStatus.push({ value: 10, label: 'enums.deviceStatus.online' }));
    let message = '';
    try {
      loadMetadata(dir);
    } catch (err) {
      expect(err).toBeInstanceOf(MetadataError);
      message = (err as Error).message;
    }
    expect(message).toContain(`${BEACON}: /fields/0/type: must be one of`);
    expect(message).toContain(`${BEACON}: /paletteSearch: paletteSearch "serial" is not a field of device-beacon`);
    expect(message).toContain('enums.json: /deviceStatus/4/value: duplicate value 10');
    expect(message).toContain('enums.json: /deviceStatus/4/label: duplicate key "online"');
  });
});

describe('declared filters', () => {
  const CARRIER = 'resources/carrier/carrier.json';
  it('speak of values by enum key, resolved at load (a list, or `not` a list)', () => {
    const meta = loadMetadata(scratchCopy());
    expect(meta.resources.carrier.filters?.inStock).toEqual({ transportStatus: [0, 10, 30], status: { not: [30, 40] } });
  });

  it('an unknown key or field is a fault naming the filter', () => {
    const dir = scratchCopy();
    edit(dir, CARRIER, (r) => (r.filters = { inStock: { transportStatus: ['inWarehouse', 'onTheMoon'], colour: ['red'] } }));
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: CARRIER, pointer: '/filters/inStock/transportStatus', problem: expect.stringContaining('"onTheMoon"') }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: CARRIER, pointer: '/filters/inStock/colour', problem: expect.stringContaining('not a field') }),
    );
  });
});

describe("a document's picker (children batch.candidates) names what exists", () => {
  it('an unknown filter, header field, target field or narrowing field is a fault', () => {
    const dir = scratchCopy();
    const BIND = 'resources/carrier/carrier-bind.json';
    edit(dir, BIND, (r) => {
      r.children[0].batch = {
        by: { field: 'carrierId', key: 'sn' },
        candidates: { filter: 'nope', match: { header: 'ghost', target: 'alsoGhost' }, narrow: ['noField'] },
      };
    });
    const faults = faultsOf(() => loadMetadata(dir)).filter((f) => f.file === BIND);
    const at = (pointer: string) => faults.filter((f) => f.pointer === pointer).map((f) => f.problem);
    expect(at('/children/0/batch/candidates/filter')).toEqual([expect.stringContaining('declares no filter "nope"')]);
    expect(at('/children/0/batch/candidates/match/header')).toEqual([expect.stringContaining('"ghost"')]);
    expect(at('/children/0/batch/candidates/match/target')).toEqual([expect.stringContaining('"alsoGhost"')]);
    expect(at('/children/0/batch/candidates')).toEqual([expect.stringContaining('"noField"')]);
  });
});
