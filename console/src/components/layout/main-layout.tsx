import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { App as AntdApp, Drawer, Layout } from 'antd';
import { KBarProvider } from '@refinedev/kbar';
import { UnsavedChangesNotifier } from '@refinedev/react-router';
import { SIDER_COLLAPSED_WIDTH, SIDER_WIDTH, TABLET_MAX_WIDTH } from '../../constants';
import './layout.css';
import { matchRoute } from '../../lib/routes';
import { useShell } from '../../providers/shell-context';
import { useImageUrl } from '../../lib/use-image-url';
import { AppHeader } from '../header/app-header';
import { TabsBar } from '../tabs/tabs-bar';
import { TabsProvider } from '../tabs/tabs-context';
import { KeepAliveOutlet } from '../tabs/keep-alive-outlet';
import { CommandPalette } from '../palette/command-palette';
import { SideMenu } from './side-menu';
import { useHeaderAutoHideSetting, useHeaderHidden } from './use-header-auto-hide';
import { useViewport } from './use-viewport';
import { siderLogo } from '../../providers/org-theme';

const isTablet = (): boolean => window.innerWidth <= TABLET_MAX_WIDTH;

/**
 * Dark fixed sider (200 px / 40 px), light fixed header (optionally hiding on scroll), tabs,
 * keep-alive content. On a phone (SPEC §9: up to 600 px) the menu is a drawer over the page
 * instead of a sider beside it, so opening it never narrows or widens the page.
 */
export default function MainLayout() {
  const { routes, theme, user } = useShell();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(isTablet);
  useEffect(() => {
    const onResize = () => {
      if (isTablet()) setCollapsed(true);
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const mobile = useViewport() === 'mobile';
  const [drawer, setDrawer] = useState(false);
  // a page chosen in the drawer (or anywhere) closes it
  useEffect(() => setDrawer(false), [pathname]);

  const hideSider = Boolean(matchRoute(pathname, routes)?.route.hideSider);
  const siderWidth = hideSider || mobile ? 0 : collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH;
  const logo = useImageUrl(siderLogo(theme, collapsed && !mobile));
  const orgName = user.orgName || user.loginOrgName;
  const [autoHide, setAutoHide] = useHeaderAutoHideSetting(user.userId);
  const headerHidden = useHeaderHidden(autoHide);

  return (
    <AntdApp component={false}>
      <TabsProvider>
        {/* The palette lives with the layout so its code loads after login. */}
        <KBarProvider options={{ disableScrollbarManagement: true }}>
          <Layout className={mobile ? 'shell shell-mobile' : 'shell'}>
            {!hideSider && mobile && (
              <Drawer
                placement="left"
                open={drawer}
                onClose={() => setDrawer(false)}
                width={SIDER_WIDTH + 40}
                closable={false}
                className="app-drawer"
                styles={{ body: { padding: 0 } }}
              >
                <div data-testid="sider-drawer">
                  <div className="sider-logo" title={orgName}>
                    {logo ? <img src={logo} alt={orgName} /> : <span className="sider-logo-text">{orgName || 'RTI'}</span>}
                  </div>
                  <SideMenu collapsed={false} />
                </div>
              </Drawer>
            )}
            {!hideSider && !mobile && (
              <Layout.Sider
                className="app-sider"
                theme="dark"
                width={SIDER_WIDTH}
                collapsedWidth={SIDER_COLLAPSED_WIDTH}
                collapsed={collapsed}
                trigger={null}
                data-testid="sider"
              >
                <div className="sider-logo" title={orgName}>
                  {logo ? <img src={logo} alt={orgName} /> : <span className="sider-logo-text">{collapsed ? 'R' : orgName || 'RTI'}</span>}
                </div>
                <SideMenu collapsed={collapsed} />
              </Layout.Sider>
            )}
            <Layout className="shell-main" style={{ marginLeft: siderWidth }}>
              <div
                className={headerHidden ? 'shell-top header-hidden' : 'shell-top'}
                style={{ left: siderWidth }}
                data-testid="shell-top"
                data-header-hidden={headerHidden}
              >
                <AppHeader
                  mobile={mobile}
                  collapsed={mobile ? !drawer : collapsed}
                  onToggle={hideSider ? undefined : mobile ? () => setDrawer((o) => !o) : () => setCollapsed((c) => !c)}
                  autoHide={autoHide}
                  onAutoHideChange={setAutoHide}
                />
                <TabsBar />
              </div>
              <Layout.Content className="shell-content">
                <KeepAliveOutlet />
              </Layout.Content>
            </Layout>
            <CommandPalette />
            <UnsavedChangesNotifier />
          </Layout>
        </KBarProvider>
      </TabsProvider>
    </AntdApp>
  );
}
