/**
 * One word per document in each language (issue 17: zh/ja terms differed between the menu, the
 * page and its back button): the ship order is called in shipping's screens, logs and alerts
 * what the menu and the resource call it, and the delivery keeps its own word.
 */
import { describe, expect, it } from 'vitest';
import { loadLocales } from '@rti/metadata';
import consoleZh from '../console/locales/zh-CN.json';
import consoleJa from '../console/locales/ja-JP.json';
import serverZh from '../server/messages/zh-CN.json';
import serverJa from '../server/messages/ja-JP.json';

const meta = loadLocales();
const flat = (o: unknown, p = ''): Array<[string, string]> =>
  typeof o === 'string' ? [[p, o]] : Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => flat(v, p ? `${p}.${k}` : k));
const get = (o: unknown, path: string): string => path.split('.').reduce<any>((v, k) => v?.[k], o);

describe.each([
  ['zh-CN', consoleZh, serverZh, ['出货单']],
  ['ja-JP', consoleJa, serverJa, ['出荷指示', '出荷書']],
] as const)('%s', (lng, screens, messages, retired) => {
  const m = meta[lng];
  const order = get(m, 'resources.ship-order');
  const delivery = get(m, 'resources.delivery');

  it('the menu, the page and the back button name the ship order alike', () => {
    expect(get(m, 'menu.shipOrder')).toBe(order);
    for (const key of ['menu.shipOrderDetail', 'menu.shipOrderMonitor', 'menu.infoShipOrder']) expect(get(m, key)).toContain(order);
    // (the order's own screens are declared record pages now: their back button is the platform's "back to the detail")
    for (const key of ['shipping.monitor.title', 'shipping.monitor.openDetail']) expect(get(screens, key)).toContain(order);
    for (const key of ['shipping.logs.shipped', 'shipping.logs.received', 'shipping.alerts.wrongWarehouse', 'shipping.alerts.orderOverdue'])
      expect(get(messages, key)).toContain(order);
  });

  it('the delivery keeps its own word in the menu, and retired words are gone', () => {
    expect(get(m, 'menu.delivery')).toBe(delivery);
    expect(delivery).not.toBe(order);
    const texts = [...flat(m), ...flat(screens), ...flat(messages)];
    for (const word of retired) expect(texts.filter(([, v]) => v.includes(word)).map(([k]) => k)).toEqual([]);
  });
});
