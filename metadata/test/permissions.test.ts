import { describe, expect, it } from 'vitest';
import { loadMetadata } from '../src/load';
import { effectiveMenu } from '../src/menu';
import { apiCode, menuCode, resourceApiPath, resourceMenuCode, resourceViewCode, routeName } from '../src/permissions';

describe('permission codes (SPEC §6)', () => {
  const meta = loadMetadata();
  const beacon = meta.resources['device-beacon'];

  it('derives Api codes from call paths', () => {
    expect(apiCode(resourceApiPath(beacon, 'list'))).toBe('ApiDeviceBeaconList');
    expect(apiCode(resourceApiPath(beacon, 'status/update'))).toBe('ApiDeviceBeaconStatusUpdate');
    expect(apiCode(resourceApiPath(beacon, 'base'))).toBe('ApiDeviceBeacon');
    expect(apiCode(resourceApiPath(meta.resources.project, 'base'))).toBe('ApiProjectGet');
  });

  it('derives View codes from route names', () => {
    expect(resourceViewCode(beacon, 'edit', meta.menu)).toBe('ViewDeviceBeaconEdit');
    expect(resourceViewCode(beacon, 'list', meta.menu)).toBe('ViewDeviceBeacon');
    expect(resourceViewCode(meta.resources.carrier, 'detail', meta.menu)).toBe('ViewCarrierDetail');
  });

  it('derives Menu codes for groups and resources', () => {
    expect(menuCode(routeName('/device', meta.menu))).toBe('MenuDevice');
    expect(menuCode(routeName('/carrier/management', meta.menu))).toBe('MenuCarrierManagement');
    expect(resourceMenuCode(beacon, meta.menu)).toBe('MenuDeviceBeacon');
  });

  it('gives every route a distinct View code', () => {
    const menu = effectiveMenu(meta);
    const byCode = new Map<string, string>();
    const clashes: string[] = [];
    const walk = (items: (typeof menu.groups)[number]['items']) => {
      for (const it of items) {
        const code = menuCode(routeName(it.path, menu));
        const other = byCode.get(code);
        // the same page listed under two groups (e.g. /gps/report) shares its code on purpose
        if (other && other !== it.path && !it.page) clashes.push(`${code}: ${other} ${it.path}`);
        byCode.set(code, it.path);
        if (it.children) walk(it.children);
      }
    };
    for (const g of menu.groups) walk(g.items);
    expect(clashes).toEqual([]);
  });
});
