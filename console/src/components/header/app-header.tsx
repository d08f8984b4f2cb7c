import { Suspense, lazy, useMemo } from 'react';
import { Button, Layout, Space } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useShell } from '../../providers/shell-context';
import { AppBreadcrumb } from './app-breadcrumb';
import { HeaderSearch } from './header-search';
import { PaletteButton } from './palette-button';
import { LogButton } from './log-button';
import { FullscreenButton } from './fullscreen-button';
import { NotificationsBell } from './notifications-bell';
import { OrgSwitcher } from './org-switcher';
import { LanguageMenu } from './language-menu';
import { UserMenu } from './user-menu';
import { ReloadButton } from './reload-button';

interface Props {
  /** phone layout (SPEC §9, up to 600 px): only what fits, the user menu always in reach */
  mobile?: boolean;
  collapsed?: boolean;
  onToggle?: () => void;
  /** the user's "hide the header on scroll" setting */
  autoHide?: boolean;
  onAutoHideChange?: (on: boolean) => void;
}

/**
 * Light fixed header: trigger, breadcrumb, then the widgets of SPEC §1. The widgets scroll
 * sideways when they do not fit; the user menu and reload button sit outside that strip, so
 * logging out and changing the password stay reachable at any width. On a phone the
 * breadcrumb, page search, fullscreen and language buttons give way (the palette finds pages,
 * the user menu switches language).
 */
export function AppHeader({ mobile, collapsed, onToggle, autoHide, onAutoHideChange }: Props) {
  const { t } = useTranslation();
  const { plugins, access } = useShell();
  const visible = useMemo(() => plugins.flatMap((p) => p.headerWidgets ?? []).filter((w) => !w.viewCode || access.has(w.viewCode)), [plugins, access]);
  const widgets = useMemo(
    () => [...visible].sort((a, b) => (a.order ?? 50) - (b.order ?? 50)).map((w) => ({ id: w.id, Component: lazy(w.component) })),
    [visible],
  );
  // A plugin's live bell takes the place of the built-in one: one bell, never two.
  const ownBell = !visible.some((w) => w.replaces === 'notifications');
  return (
    <Layout.Header className="app-header">
      {onToggle && (
        <Button
          type="text"
          className="sider-trigger"
          data-testid="sider-trigger"
          aria-label={t(collapsed ? 'header.expandMenu' : 'header.collapseMenu')}
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggle}
        />
      )}
      {!mobile && <AppBreadcrumb />}
      <div className="header-widgets" data-testid="header-widgets">
        <Space size={4}>
          {!mobile && <HeaderSearch />}
          <PaletteButton />
          <LogButton />
          {!mobile && <FullscreenButton />}
          {ownBell && <NotificationsBell />}
          {widgets.map(({ id, Component }) => (
            <Suspense key={id} fallback={null}>
              <Component />
            </Suspense>
          ))}
          <OrgSwitcher />
          {!mobile && <LanguageMenu />}
        </Space>
      </div>
      <div className="header-end">
        <UserMenu autoHide={autoHide} onAutoHideChange={onAutoHideChange} />
        <ReloadButton />
      </div>
    </Layout.Header>
  );
}
