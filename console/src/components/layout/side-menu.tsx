import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { Badge, Menu, type MenuProps } from 'antd';
import { matchRoute } from '../../lib/routes';
import { menuBadges } from '../../lib/menu-badges';
import type { NavNode } from '../../lib/menu';
import { useShell } from '../../providers/shell-context';
import { MenuIcon } from './menu-icon';

type Item = Required<MenuProps>['items'][number];

/** Dark side menu of the groups and pages the user may open. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { sideMenu, routes } = useShell();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const badges = useSyncExternalStore(menuBadges.subscribe, menuBadges.get);

  const byKey = useMemo(() => {
    const m = new Map<string, NavNode>();
    const walk = (ns: NavNode[]) => ns.forEach((n) => (m.set(n.key, n), n.children && walk(n.children)));
    walk(sideMenu);
    return m;
  }, [sideMenu]);

  const items = useMemo(() => {
    const toItem = (n: NavNode): Item => {
      const badge = badges[n.path];
      const label = (
        <span className="menu-label" data-testid={`menu:${n.path || n.key}`} title={t(n.label)}>
          {t(n.label)}
          {badge !== undefined && !n.children && <Badge className="menu-badge" count={badge} size="small" />}
        </span>
      );
      return n.children
        ? { key: n.key, icon: <MenuIcon name={n.icon} />, label, children: n.children.map(toItem) }
        : { key: n.key, icon: <MenuIcon name={n.icon} />, label };
    };
    return sideMenu.map(toItem);
  }, [sideMenu, badges, t]);

  // Detail/edit pages select their resource's list entry.
  const m = matchRoute(pathname, routes);
  const selected = m?.route.resource?.route ?? m?.route.path ?? pathname;
  const group = sideMenu.find((g) =>
    g.children?.some(function has(c): boolean {
      return c.path === selected || (c.children ?? []).some(has);
    }),
  );
  const [openKeys, setOpenKeys] = useState<string[]>(group ? [group.key] : []);
  // Opening a page from elsewhere (tabs, palette, search) unfolds its group.
  const groupKey = group?.key;
  useEffect(() => {
    if (groupKey) setOpenKeys((keys) => (keys.includes(groupKey) ? keys : [...keys, groupKey]));
  }, [groupKey]);

  return (
    <Menu
      theme="dark"
      mode="inline"
      inlineIndent={16}
      items={items}
      selectedKeys={[selected]}
      openKeys={collapsed ? undefined : openKeys}
      onOpenChange={setOpenKeys}
      onClick={({ key }) => {
        const node = byKey.get(key);
        if (!node) return;
        if (node.newWindow) window.open(node.path, '_blank', 'noopener');
        else navigate(node.path);
      }}
    />
  );
}
