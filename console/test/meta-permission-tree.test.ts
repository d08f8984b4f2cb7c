import { describe, expect, it } from 'vitest';
import { catalogueNodes, checkedLeaves, parentIndex, toTreeData, withAncestors } from '../src/meta/lib/permission-tree';

const catalogue = [
  {
    code: 'MenuDevice',
    label: 'Device',
    children: [
      { code: 'ViewDeviceBeacon', label: 'Beacons', children: [{ code: 'ApiDeviceBeaconList', label: 'List' }, { code: 'ApiDeviceBeaconCreate', label: 'Create' }] },
      { code: 'ViewDeviceGps', label: 'GPS' },
    ],
  },
];

describe('permission tree', () => {
  const tree = toTreeData(catalogue);
  const parents = parentIndex(tree);
  it('feeds the conducting tree leaves only, so a held parent does not check all its children', () => {
    expect(checkedLeaves(tree, ['MenuDevice', 'ViewDeviceBeacon', 'ApiDeviceBeaconList'])).toEqual(['ApiDeviceBeaconList']);
  });
  it('saves every ancestor of a checked code', () => {
    expect(withAncestors(['ApiDeviceBeaconCreate'], parents).sort()).toEqual(['ApiDeviceBeaconCreate', 'MenuDevice', 'ViewDeviceBeacon']);
    expect(withAncestors([], parents)).toEqual([]);
  });
  it('accepts the catalogue bare or wrapped', () => {
    expect(catalogueNodes(catalogue)).toBe(catalogue);
    expect(catalogueNodes({ tree: catalogue })).toBe(catalogue);
    expect(catalogueNodes(null)).toEqual([]);
  });
});
