/**
 * The demo "Operator" role: everything of the device and basic-info groups except deleting,
 * read-only lists of the carrier group, and the home pages operators live in (dashboard, map,
 * track history, vehicles, locating centre) with the calls they read — nothing of the System
 * group.
 * Picked from the permission catalogue tree, so new resources of those groups join it.
 */
import type { PermissionNode } from '@rti/server/access/catalogue';

const FULL_GROUPS = ['/device', '/basic-info'];
const LIST_GROUPS = ['/carrier/management'];
const HOME_PAGES = ['/dashboard-home', '/map', '/map/history', '/vehicle', '/vehicle/track', '/locating-center'];
const READ_CALLS = /\/(list|all)$/;

export function operatorCodes(tree: PermissionNode[]): string[] {
  const out = new Set<string>();
  const all = (n: PermissionNode, keep: (n: PermissionNode) => boolean) => {
    if (n.code && keep(n)) out.add(n.code);
    for (const c of n.children ?? []) all(c, keep);
  };
  for (const group of tree) {
    if (group.path && FULL_GROUPS.includes(group.path)) all(group, (n) => !(n.type === 30 && n.path?.endsWith('/delete')));
    if (group.path && LIST_GROUPS.includes(group.path)) {
      out.add(group.code);
      for (const item of group.children ?? []) {
        out.add(item.code);
        const list = item.children?.find((v) => v.type === 20 && v.path === item.path);
        if (list) all(list, (n) => n.type === 20 || (n.type === 30 && READ_CALLS.test(n.path ?? '')));
      }
    }
    for (const item of group.children ?? []) {
      if (item.path && HOME_PAGES.includes(item.path)) {
        out.add(group.code);
        all(item, () => true);
      }
    }
  }
  return [...out].sort();
}
