import { describe, expect, it } from 'vitest';
import {
  catalogueNodes,
  checkedLeaves,
  expandedForSearch,
  filterTree,
  findNode,
  leavesOf,
  missingPages,
  parentIndex,
  toggleLeaves,
  toTreeData,
  withAncestors,
  withoutPages,
} from '../src/meta/lib/permission-tree';

const catalogue = [
  {
    code: 'MenuDevice',
    label: 'Device',
    children: [
      {
        code: 'ViewDeviceBeacon',
        label: 'Beacons',
        children: [
          { code: 'ApiDeviceBeaconList', label: 'List' },
          { code: 'ApiDeviceBeaconCreate', label: 'Create' },
        ],
      },
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

describe('permission tree while searching (issue 23 defect 5)', () => {
  const home = [
    {
      code: 'MenuHome',
      label: 'Home',
      children: [
        { code: 'ViewDashboard', label: 'Dashboard', children: [{ code: 'ApiDashboardSummary', label: 'Summary' }] },
        {
          code: 'ViewMonitor',
          label: 'Monitor',
          children: [
            { code: 'ApiMonitorList', label: 'List' },
            { code: 'ApiMonitorProcess', label: 'Process' },
          ],
        },
      ],
    },
    { code: 'MenuSystem', label: 'System', children: [{ code: 'ViewRole', label: 'Roles', children: [{ code: 'ApiRoleList', label: 'List' }] }] },
  ];
  const tree = toTreeData(home);
  const parents = parentIndex(tree);

  it('ticking a group grants every code under it, whatever the search shows', () => {
    const shown = filterTree(tree, 'dash');
    // the search shows Home with Dashboard only …
    expect(shown).toHaveLength(1);
    expect(shown[0].children?.map((c) => c.key)).toEqual(['ViewDashboard']);
    // … and ticking Home there still grants Monitor too
    const codes = withAncestors(toggleLeaves(tree, [], 'MenuHome', true), parents).sort();
    expect(codes).toEqual(['ApiDashboardSummary', 'ApiMonitorList', 'ApiMonitorProcess', 'MenuHome', 'ViewDashboard', 'ViewMonitor']);
    // unticking it removes all of them and keeps what was ticked elsewhere
    expect(toggleLeaves(tree, ['ApiDashboardSummary', 'ApiMonitorList', 'ApiRoleList'], 'MenuHome', false)).toEqual(['ApiRoleList']);
  });

  it('a group found by name shows its whole subtree', () => {
    const shown = filterTree(tree, 'home');
    expect(shown[0].children?.map((c) => c.key)).toEqual(['ViewDashboard', 'ViewMonitor']);
  });

  it('searching for an API code expands the way to it', () => {
    const shown = filterTree(tree, 'ApiMonitorProcess');
    expect(shown[0].children?.[0].children?.map((c) => c.key)).toEqual(['ApiMonitorProcess']);
    expect(expandedForSearch(shown, 'ApiMonitorProcess').sort()).toEqual(['MenuHome', 'ViewMonitor']);
    expect(findNode(tree, 'ApiRoleList')?.title).toBe('List');
    expect(leavesOf(findNode(tree, 'MenuSystem')!)).toEqual(['ApiRoleList']);
  });
});

describe('permission tree offers only pages that exist', () => {
  const groups = [
    { items: [{ path: '/inventory-manage/inventory/realtime', page: 'inventory-realtime' }, { path: '/inventory-manage/carrier-inout' }] },
    { items: [{ path: '/report/gps/report', page: 'report-gps-report', children: [{ path: '/report/gps/report/detail', page: 'gps-detail' }] }] },
  ];
  const catalogue = [
    {
      code: 'MenuInventoryManage',
      type: 10,
      path: '/inventory-manage',
      children: [
        {
          code: 'MenuInventoryRealtime',
          type: 10,
          path: '/inventory-manage/inventory/realtime',
          children: [{ code: 'ViewInventoryRealtime', type: 20, path: '/inventory-manage/inventory/realtime' }],
        },
        {
          code: 'ViewCarrierInout',
          type: 20,
          path: '/inventory-manage/carrier-inout',
          children: [{ code: 'ApiCarrierInoutList', type: 30, path: '/carrier-inout/list' }],
        },
      ],
    },
    { code: 'MenuReport', type: 10, path: '/report', children: [{ code: 'ViewGpsDetail', type: 20, path: '/report/gps/report/detail' }] },
  ];
  it('drops menu pages no console route serves, and groups they leave empty', () => {
    const missing = missingPages(groups, ['/inventory-manage/carrier-inout', '/report/gps/report']);
    expect([...missing].sort()).toEqual(['/inventory-manage/inventory/realtime', '/report/gps/report/detail']);
    const kept = toTreeData(withoutPages(catalogue, missing));
    expect([...parentIndex(kept).keys()]).toEqual(['MenuInventoryManage', 'ViewCarrierInout', 'ApiCarrierInoutList']);
    expect(withoutPages(catalogue, new Set())).toBe(catalogue);
  });
});
