// A resource's form defaults call (metadata form.defaultsFrom) sits under its create screen in
// the permission tree, so ticking "Create …" in a role grants what the create form asks.
import { describe, expect, it } from 'vitest';
import { loadMetadata } from '@rti/metadata';
import { buildCatalogue, type PermissionNode } from '../src/access/catalogue';

const find = (nodes: PermissionNode[], code: string): PermissionNode | undefined => {
  for (const n of nodes) {
    if (n.code === code) return n;
    const hit = n.children && find(n.children, code);
    if (hit) return hit;
  }
  return undefined;
};

describe('form defaults call in the permission tree', () => {
  it('hangs /ship-order/setup under the ship order create screen, other plugin calls of the resource under its list', () => {
    const meta = loadMetadata();
    const calls = ['/ship-order/setup', '/ship-order/all/wareshouse', '/ship-order/create', '/ship-order/list'].map((path) => ({
      path,
      resource: 'ship-order',
      plugin: 'shipping',
    }));
    const tree = buildCatalogue(meta, calls, (_lang, key) => key).tree('en-US');
    const under = (view: string) => (find(tree, view)?.children ?? []).map((c) => c.code);
    expect(under('ViewShipOrderCreate')).toEqual(expect.arrayContaining(['ApiShipOrderSetup', 'ApiShipOrderCreate']));
    expect(under('ViewShipOrder')).toEqual(expect.arrayContaining(['ApiShipOrderAllWareshouse', 'ApiShipOrderList']));
    expect(under('ViewShipOrder')).not.toContain('ApiShipOrderSetup');
  });
});
