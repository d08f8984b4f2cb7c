import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { useNavigate } from './lib/navigate';
import { Refine } from '@refinedev/core';
import { ConfigProvider } from 'antd';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { useTranslation } from 'react-i18next';
import { authProvider } from './providers/auth-provider';
import { routerProvider } from './providers/router-provider';
import { createDataProvider } from './providers/data-provider';
import { createAccessControlProvider } from './providers/access-control-provider';
import { i18nProvider } from './providers/i18n-provider';
import { createNotificationProvider } from './providers/notification-provider';
import { appState, resetAppState } from './providers/app-state';
import { setInvalidSessionHandler } from './providers/http-client';
import { useAppState } from './providers/use-app-state';
import { ShellProvider, useShellValue, type Shell } from './providers/shell-context';
import { MetadataProvider } from './providers/metadata-context';
import { themeColors } from './providers/org-theme';
import { antdLocale } from './i18n/antd-locale';
import { isLoginPath, loginPath, session } from './lib/session';
import { refineResources } from './lib/refine-resources';
import { AppRoutes } from './routes/app-routes';
import type { AppState } from './providers/app-state';

const NotificationHolder = lazy(() => import('./providers/notification-holder'));

const dataProvider = createDataProvider((name) => appState.get().metadata?.resources[name]);

/** Sends the user to login (keeping where they were) when the server says the session is gone. */
function InvalidSessionRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    setInvalidSessionHandler(() => {
      if (isLoginPath(location.pathname)) return;
      const entry = appState.get().user?.loginEntryCode ?? session.entryCode();
      session.clear();
      resetAppState();
      navigate(loginPath(entry, location.pathname + location.search), { replace: true });
    });
  }, [navigate]);
  return null;
}

function RefineRoot({ shell }: { shell?: Shell }) {
  const { t } = useTranslation();
  // Notifications only at the root: antd's App (modal, message) comes with the layout chunk; the
  // notification code itself loads after the first render (a notification raised earlier waits).
  const [notifications] = useState(() => {
    let ready!: (api: NotificationInstance) => void;
    const api = new Promise<NotificationInstance>((r) => (ready = r));
    return { api, ready, provider: createNotificationProvider(api) };
  });
  const notificationProvider = notifications.provider;
  const routes = shell?.routes;
  const accessControlProvider = useMemo(() => createAccessControlProvider(() => routes ?? []), [routes]);
  const resources = useMemo(() => (routes ? refineResources(routes, t) : []), [routes, t]);
  const content = (
    <Refine
      dataProvider={dataProvider}
      authProvider={authProvider}
      accessControlProvider={accessControlProvider}
      i18nProvider={i18nProvider}
      notificationProvider={notificationProvider}
      routerProvider={routerProvider}
      resources={resources}
      options={{ disableTelemetry: true, warnWhenUnsavedChanges: true, syncWithLocation: true }}
    >
      <Suspense fallback={null}>
        <NotificationHolder onApi={notifications.ready} />
      </Suspense>
      <InvalidSessionRedirect />
      <AppRoutes shell={shell} />
    </Refine>
  );
  if (!shell) return content;
  return (
    <ShellProvider value={shell}>
      <MetadataProvider value={shell.meta}>{content}</MetadataProvider>
    </ShellProvider>
  );
}

type ReadyState = AppState & Required<Pick<AppState, 'metadata' | 'user'>>;
const isReady = (s: AppState): s is ReadyState => s.status === 'ready' && Boolean(s.metadata && s.user);

function ReadyShell({ state }: { state: ReadyState }) {
  const shell = useShellValue({
    metadata: state.metadata,
    plugins: state.plugins,
    access: state.access,
    permissions: state.permissions,
    user: state.user,
    theme: state.theme,
  });
  return <RefineRoot shell={shell} />;
}

export function App() {
  const state = useAppState();
  const { i18n } = useTranslation();
  const colors = themeColors(state.theme);
  // Plain CSS (sider, palette, progress bar) reads the org colours from variables.
  useEffect(() => {
    document.documentElement.style.setProperty('--primary-color', colors.primary);
    document.documentElement.style.setProperty('--menu-color', colors.menu);
  }, [colors.primary, colors.menu]);
  return (
    <ConfigProvider
      locale={antdLocale(i18n.language)}
      componentSize="middle"
      theme={{
        token: { colorPrimary: colors.primary, colorInfo: colors.primary },
        components: {
          Layout: { siderBg: colors.menu, triggerBg: colors.menu },
          Menu: { darkItemBg: colors.menu, darkSubMenuItemBg: colors.menu, darkPopupBg: colors.menu },
        },
      }}
    >
      <BrowserRouter>{isReady(state) ? <ReadyShell state={state} /> : <RefineRoot />}</BrowserRouter>
    </ConfigProvider>
  );
}
