import { useLocation } from 'react-router';
import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { matchRoute } from '../../lib/routes';
import { useShell } from '../../providers/shell-context';
import { pageTitle } from '../../routes/page-title';
import type { TabAction } from './tab-store';
import { useTabStore, useTabsState, useTrackTabs } from './tabs-context';
import { recordTitle, useRecordTitles } from '../../providers/record-titles';
import { useEffect } from 'react';

const ACTIONS: TabAction[] = ['close', 'closeLeft', 'closeRight', 'closeOthers', 'closeAll'];

/** Closable tabs of opened pages, with a context menu and a dropdown of the tab actions. */
export function TabsBar() {
  const { t } = useTranslation();
  const { routes } = useShell();
  const store = useTabStore();
  const state = useTabsState();
  const location = useLocation();
  const navigate = useNavigate();

  useTrackTabs();
  const titles = useRecordTitles();
  // a record tab keeps the title it showed (saved with the tabs), for after a reload
  useEffect(() => {
    for (const tab of state.tabs) {
      const m = matchRoute(tab.key, routes);
      const title = m?.route.resource && m.params.id ? recordTitle(m.route.resource.name, m.params.id) : undefined;
      if (title && title !== tab.titleArgs?.title) store.retitle(tab.key, title);
    }
  }, [titles, state.tabs, routes, store]);

  const run = (action: TabAction, key: string): void => {
    store.act(action, key);
    const next = store.get();
    if (next.active !== location.pathname) {
      const tab = next.tabs.find((x) => x.key === next.active);
      if (tab) navigate(tab.path);
    }
  };

  const menuFor = (key: string): MenuProps => {
    const i = state.tabs.findIndex((x) => x.key === key);
    const disabled: Record<TabAction, boolean> = {
      close: i <= 0,
      closeLeft: i <= 1,
      closeRight: i < 0 || i >= state.tabs.length - 1,
      closeOthers: state.tabs.length <= (i <= 0 ? 1 : 2),
      closeAll: state.tabs.length <= 1,
    };
    return {
      items: ACTIONS.map((a) => ({
        key: a,
        disabled: disabled[a],
        label: <span data-testid={`tab-action-${a}`}>{t(`tabs.${a}`)}</span>,
      })),
      onClick: ({ key: a, domEvent }) => {
        domEvent.stopPropagation();
        run(a as TabAction, key);
      },
    };
  };

  const titleOf = (key: string, fallback: string, known?: string): string => {
    const m = matchRoute(key, routes);
    return m ? pageTitle(m.route, m.params, t, known) : t(fallback);
  };

  return (
    <div className="tabs-bar" data-testid="tabs">
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={state.active}
        onChange={(key) => {
          const tab = state.tabs.find((x) => x.key === key);
          if (tab) navigate(tab.path);
        }}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') run('close', key);
        }}
        items={state.tabs.map((tab, i) => ({
          key: tab.key,
          closable: i > 0,
          label: (
            <Dropdown menu={menuFor(tab.key)} trigger={['contextMenu']}>
              <span data-testid={`tab:${tab.key}`} data-active={tab.key === state.active ? 'true' : 'false'}>
                {titleOf(tab.key, tab.title, tab.titleArgs?.title)}
              </span>
            </Dropdown>
          ),
        }))}
        tabBarExtraContent={
          <Dropdown menu={menuFor(state.active)} trigger={['click']}>
            <Button size="small" type="text" data-testid="tabs-actions" aria-label={t('tabs.actions')}>
              <DownOutlined />
            </Button>
          </Dropdown>
        }
      />
    </div>
  );
}
