import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../src/load';
import { effectiveMenu, menuItems } from '../src/menu';
import { namedPatterns, patternRegExp } from '../src/patterns';

describe('effective menu', () => {
  it('appends a resource that menu.json does not list to its module group', () => {
    const meta = loadMetadata();
    const shipper = meta.resources.shipper;
    const trimmed = {
      ...meta,
      menu: { groups: meta.menu.groups.map((g) => ({ ...g, items: g.items.filter((i) => i.resource !== 'shipper') })) },
    };
    const item = menuItems(effectiveMenu(trimmed)).find((i) => i.resource === 'shipper');
    expect(item).toMatchObject({ group: 'basic-info', path: shipper.route, label: 'resources.shipper' });
    expect(menuItems(effectiveMenu(meta)).filter((i) => i.resource === 'shipper')).toHaveLength(1);
  });

  it('turns the page item standing on a new resource route into that resource item', () => {
    const meta = loadMetadata();
    const route = '/inventory-manage/inventory/adjustment';
    const withRes = {
      ...meta,
      resources: { ...meta.resources, 'inventory-adjustment': { ...meta.resources.shipper, name: 'inventory-adjustment', module: 'inventory', route } },
    };
    const items = menuItems(effectiveMenu(withRes)).filter((i) => i.path.startsWith(route));
    expect(items).toEqual([expect.objectContaining({ path: route, resource: 'inventory-adjustment', label: 'menu.inventoryAdjustment', group: 'inventory' })]);
    expect(items[0].page).toBeUndefined();
  });
});

describe('named patterns (SPEC §5)', () => {
  it('password: 8-50 with letters, digits and a special character', () => {
    expect(namedPatterns.password.test('Admin@12345')).toBe(true);
    expect(namedPatterns.password.test('admin12345')).toBe(false);
    expect(namedPatterns.password.test('Ab@1')).toBe(false);
    expect(namedPatterns.password.test('Ab@1' + 'x'.repeat(47))).toBe(false);
  });

  it('mqttPassword: at least 8 with upper, lower case and digits', () => {
    expect(namedPatterns.mqttPassword.test('Gateway01')).toBe(true);
    expect(namedPatterns.mqttPassword.test('gateway01')).toBe(false);
  });

  it('mac accepts separated and bare hex; other patterns are regex sources', () => {
    expect(namedPatterns.mac.test('AC:23:3F:A0:01:02')).toBe(true);
    expect(namedPatterns.mac.test('ac233fa00102')).toBe(true);
    expect(namedPatterns.mac.test('AC:23:3F:A0:01')).toBe(false);
    expect(patternRegExp('^[0-9]{9}$').test('123456789')).toBe(true);
  });
});
