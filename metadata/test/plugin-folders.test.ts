import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAll, loadLocales, loadMetadata } from '../src/load';
import { faultsOf, scratchCopy } from './helpers';

/** Writes `plugins/<id>/metadata/<file>` beside a scratch copy's metadata folder. */
function put(dir: string, id: string, file: string, value: unknown): void {
  const abs = join(dir, '..', 'plugins', id, 'metadata', file);
  mkdirSync(join(abs, '..'), { recursive: true });
  writeFileSync(abs, JSON.stringify(value, null, 2));
}

const widget = {
  name: 'widget-order',
  module: 'system',
  route: '/system/widget-order',
  orgScoped: true,
  titleField: 'code',
  fields: [
    { name: 'code', type: 'string', required: true },
    { name: 'state', type: 'enum', enum: 'widgetState', label: 'fields.widgetState' },
  ],
};
const labels = (lng: string) => ({
  resources: { 'widget-order': `Widget order ${lng}` },
  fields: { widgetState: `State ${lng}` },
  enums: { widgetState: { open: `Open ${lng}`, done: `Done ${lng}` } },
  menu: { widgets: `Widgets ${lng}` },
});
const enums = {
  widgetState: [
    { value: 10, label: 'enums.widgetState.open' },
    { value: 20, label: 'enums.widgetState.done' },
  ],
};

function widgetPlugin(dir: string): void {
  put(dir, 'widgets', 'resources/widget-order.json', widget);
  put(dir, 'widgets', 'enums.json', enums);
  put(dir, 'widgets', 'menu.json', { groups: [{ key: 'system', items: [{ path: '/system/widget-order', label: 'menu.widgets', resource: 'widget-order' }] }] });
  for (const lng of ['en-US', 'zh-CN', 'ja-JP']) put(dir, 'widgets', `locales/${lng}.json`, labels(lng));
}

describe('a module is one folder: plugins/<id>/metadata', () => {
  it('resources, enums, menu entries and locales of a plugin are merged into the metadata', () => {
    const dir = scratchCopy();
    widgetPlugin(dir);
    const { meta, locales } = loadAll(dir);
    expect(meta.resources['widget-order'].module).toBe('system');
    expect(meta.enums.widgetState.map((e) => e.value)).toEqual([10, 20]);
    const system = meta.menu.groups.find((g) => g.key === 'system')!;
    expect(system.items.at(-1)).toMatchObject({ resource: 'widget-order' });
    expect((locales['ja-JP'] as any).enums.widgetState.done).toBe('Done ja-JP');
    // the metadata's own labels are still there beside the plugin's
    expect((locales['en-US'] as any).validation.required).toBeTruthy();
  });

  it('a plugin resource is checked like any other, its faults name the plugin file', () => {
    const dir = scratchCopy();
    widgetPlugin(dir);
    put(dir, 'widgets', 'resources/widget-order.json', {
      ...widget,
      fields: [...widget.fields, { name: 'x', type: 'enum', enum: 'nope' }, { name: 'y', type: 'strng' }],
    });
    const faults = faultsOf(() => loadMetadata(dir));
    const file = 'plugins/widgets/metadata/resources/widget-order.json';
    expect(faults).toContainEqual(expect.objectContaining({ file, pointer: '/fields/3/type' }));
    expect(faults).toContainEqual({ file, pointer: '/fields/2/enum', problem: 'unknown enum "nope"' });
  });

  it('a resource, enum or label declared twice, a bad menu entry and a missing label name the plugin file', () => {
    const dir = scratchCopy();
    widgetPlugin(dir);
    put(dir, 'widgets', 'resources/warehouse.json', { ...widget, name: 'warehouse', route: '/system/wh' });
    put(dir, 'widgets', 'enums.json', { ...enums, carrierStatus: [{ value: 1, label: 'enums.carrierStatus.x' }] });
    put(dir, 'widgets', 'menu.json', {
      groups: [
        { key: 'system', items: [{ path: '/system/widget-order', label: 'menu.widgets', resource: 'widget-nope' }] },
        { key: 'lonely', items: [] },
      ],
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({
        file: 'plugins/widgets/metadata/resources/warehouse.json',
        pointer: '/name',
        problem: expect.stringContaining('already declared in resources/basic-info/warehouse.json'),
      }),
    );
    expect(faults).toContainEqual({
      file: 'plugins/widgets/metadata/enums.json',
      pointer: '/carrierStatus',
      problem: 'enum "carrierStatus" is already declared in enums.json',
    });
    expect(faults).toContainEqual({
      file: 'plugins/widgets/metadata/menu.json',
      pointer: '/groups/1',
      problem: 'a new menu group "lonely" needs a path and a label',
    });

    const ok = scratchCopy();
    widgetPlugin(ok);
    put(ok, 'widgets', 'menu.json', { groups: [{ key: 'system', items: [{ path: '/system/widget-order', label: 'menu.widgets', resource: 'widget-nope' }] }] });
    expect(faultsOf(() => loadMetadata(ok))).toContainEqual({
      file: 'plugins/widgets/metadata/menu.json',
      pointer: '/groups/0/items/0/resource',
      problem: 'unknown resource "widget-nope"',
    });

    const labelled = scratchCopy();
    widgetPlugin(labelled);
    const ja = labels('ja-JP') as any;
    delete ja.enums.widgetState.done;
    ja.validation = { required: 'twice' };
    put(labelled, 'widgets', 'locales/ja-JP.json', ja);
    expect(faultsOf(() => loadLocales(labelled))).toEqual([
      {
        file: 'plugins/widgets/metadata/locales/ja-JP.json',
        pointer: '/validation/required',
        problem: '"validation.required" is already given by locales/ja-JP.json',
      },
    ]);
    delete ja.validation;
    put(labelled, 'widgets', 'locales/ja-JP.json', ja);
    expect(faultsOf(() => loadAll(labelled))).toContainEqual({
      file: 'plugins/widgets/metadata/locales/ja-JP.json',
      pointer: '/enums/widgetState/done',
      problem: 'missing label "enums.widgetState.done" used by the metadata',
    });
  });

  it('enum-values.json adds values to an enum declared elsewhere; a taken value or name, or an unknown enum, is a fault', () => {
    const dir = scratchCopy();
    put(dir, 'acme', 'enum-values.json', { taskName: [{ value: 1000, label: 'enums.taskName.acmeReport' }] });
    for (const lng of ['en-US', 'zh-CN', 'ja-JP']) put(dir, 'acme', `locales/${lng}.json`, { enums: { taskName: { acmeReport: `Acme ${lng}` } } });
    const { meta, locales } = loadAll(dir);
    // the value it adds (other plugins' values may come after it: modules load by id)
    expect(meta.enums.taskName.find((e) => e.label === 'enums.taskName.acmeReport')).toEqual({ value: 1000, label: 'enums.taskName.acmeReport' });
    expect(meta.enums.taskName.length).toBeGreaterThan(10);
    expect((locales['ja-JP'] as any).enums.taskName.acmeReport).toBe('Acme ja-JP');
    put(dir, 'acme', 'enum-values.json', {
      taskName: [
        { value: 60, label: 'enums.taskName.acmeReport' },
        { value: 1001, label: 'enums.taskName.gpsReportMail' },
      ],
      noSuchEnum: [{ value: 1, label: 'enums.noSuchEnum.x' }],
    });
    const faults = faultsOf(() => loadMetadata(dir));
    expect(faults).toContainEqual(
      expect.objectContaining({ file: 'plugins/acme/metadata/enum-values.json', pointer: '/taskName/0', problem: expect.stringContaining('already has 60') }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({
        file: 'plugins/acme/metadata/enum-values.json',
        pointer: '/taskName/1',
        problem: expect.stringContaining('enums.taskName.gpsReportMail'),
      }),
    );
    expect(faults).toContainEqual(
      expect.objectContaining({ file: 'plugins/acme/metadata/enum-values.json', pointer: '/noSuchEnum', problem: expect.stringContaining('is not declared') }),
    );
  });

  it('the repository metadata with its plugin folders loads', () => {
    expect(() => loadAll()).not.toThrow();
  });
});
