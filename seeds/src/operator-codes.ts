/**
 * The demo "Operator" role: everything of the device, basic-info and ship-order groups (ship
 * orders, ship plans, deliveries, receipts and their lines, steps, printing, import) except
 * deleting, read-only lists of the carrier group, and the pages operators live in with the calls
 * they read: dashboard, map, track history, ship-order monitor, vehicles, locating centre, and
 * the truck shipment report of the Reports group — nothing of the System group.
 * Picked from the permission catalogue tree, so new resources of those groups join it.
 */
import type { PermissionNode } from '@rti/server/access/catalogue';

const FULL_GROUPS = ['/device', '/basic-info', '/ship-order-manage'];
const LIST_GROUPS = ['/carrier/management'];
/** single pages of other groups, each with its sub-pages (the truck report's detail) and calls */
const PAGES = ['/dashboard-home', '/map', '/map/history', '/ship-order/monitor', '/vehicle', '/vehicle/track', '/locating-center', '/report/truck'];
const READ_CALLS = /\/(list|all)$/;

export function operatorCodes(tree: PermissionNode[]): string[] {
  const out = new Set<string>();
  const all = (n: PermissionNode, keep: (n: PermissionNode) => boolean) => {
    if (n.code && keep(n)) out.add(n.code);
    for (const c of n.children ?? []) all(c, keep);
  };
  const noDelete = (n: PermissionNode) => !(n.type === 30 && n.path?.endsWith('/delete'));
  for (const group of tree) {
    if (group.path && FULL_GROUPS.includes(group.path)) all(group, noDelete);
    if (group.path && LIST_GROUPS.includes(group.path)) {
      out.add(group.code);
      for (const item of group.children ?? []) {
        out.add(item.code);
        const list = item.children?.find((v) => v.type === 20 && v.path === item.path);
        if (list) all(list, (n) => n.type === 20 || (n.type === 30 && READ_CALLS.test(n.path ?? '')));
      }
    }
    for (const item of group.children ?? []) {
      if (item.path && PAGES.includes(item.path)) {
        out.add(group.code);
        all(item, noDelete);
      }
    }
  }
  return [...out].sort();
}
