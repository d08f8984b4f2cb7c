import { describe, expect, it } from 'vitest';
import { loadAll, loadLocales, loadMetadata } from '../src/load';
import { menuItems } from '../src/menu';

describe('repository metadata', () => {
  const meta = loadMetadata();

  it('loads without faults, with its locales', () => {
    expect(() => loadAll()).not.toThrow();
    expect(Object.keys(loadLocales()).sort()).toEqual(['en-US', 'ja-JP', 'zh-CN']);
  });

  it('declares every resource the framework issue requires', () => {
    const required = [
      'organization',
      'user',
      'role',
      'dictionary',
      'project',
      'device-model',
      'device-beacon',
      'device-gps',
      'device-slave-gateway',
      'device-master-gateway',
      'warehouse',
      'location',
      'supplier-customer',
      'route',
      'carrier-code',
      'carrier',
    ];
    for (const name of required) expect(meta.resources[name], name).toBeDefined();
  });

  it('keeps SPEC numeric values of enumerations', () => {
    const values = (name: string) => meta.enums[name].map((v) => v.value);
    expect(values('deviceStatus')).toEqual([0, 10, 20, 30]);
    expect(values('shipOrderStatus')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(values('slaveGatewayPurpose')).toEqual([10, 20, 50, 60]);
    expect(values('dictionaryCategory')).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 91, 92, 93]);
    expect(values('operationLogObject')).toContain(42);
    expect(values('gpsImportError')).toHaveLength(19);
    expect(meta.enums.deviceStatus.map((v) => v.color)).toEqual(['default', 'success', 'error', 'warning']);
  });

  it('lists the SPEC menu groups in SPEC order', () => {
    expect(meta.menu.groups.map((g) => g.path)).toEqual([
      '',
      '/report',
      '',
      '/carrier/management',
      '/device',
      '/monitor',
      '/system',
      '/basic-info',
      '/ship-order-manage',
      '/inventory-manage',
      '/delivery-receive-manage',
      '/maintenance',
      '/rfid-menu',
    ]);
  });

  it('lists every declared resource in menu.json', () => {
    const listed = menuItems(meta.menu)
      .filter((i) => i.resource)
      .map((i) => i.resource);
    expect(listed.sort()).toEqual(Object.keys(meta.resources).sort());
  });
});
