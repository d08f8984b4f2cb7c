import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Empty, List, Popover, Spin, Tabs, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import type { NotificationItem, NotificationSource } from '../../plugin-contract';
import { useShell } from '../../providers/shell-context';
import { mayUse } from '../../lib/guard';

/**
 * The header bell. Plugins fill it with `notifications` sources (one tab per category);
 * with none registered it shows an empty list.
 */
export function NotificationsBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { plugins, access, routes } = useShell();
  const sources: NotificationSource[] = useMemo(
    () => plugins.flatMap((p) => p.notifications ?? []).filter((s) => !s.viewCode || access.has(s.viewCode)),
    [plugins, access],
  );
  const [items, setItems] = useState<Record<string, NotificationItem[]>>({});
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (): Promise<void> => {
    setLoading(true);
    const loaded = await Promise.all(sources.map((s) => s.load().catch(() => [] as NotificationItem[])));
    setItems(Object.fromEntries(sources.map((s, i) => [s.id, loaded[i]])));
    setLoading(false);
  }, [sources]);
  const total = Object.values(items).reduce((n, l) => n + l.length, 0);

  // Load once at start so the badge shows the count; again each time the panel opens.
  useEffect(() => {
    if (sources.length) void load();
  }, [sources, load]);

  const list = (rows: NotificationItem[]) =>
    rows.length ? (
      <List
        size="small"
        dataSource={rows}
        renderItem={(r) => (
          // an item opens its page only for users who may open it
          <List.Item {...(r.path && mayUse({ open: r.path }, routes, access) ? { className: 'clickable', onClick: () => navigate(r.path!) } : {})}>
            <List.Item.Meta title={r.title} description={[r.description, r.time].filter(Boolean).join(' · ')} />
          </List.Item>
        )}
      />
    ) : (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('header.noNotifications')} />
    );

  const content = (
    <div className="notifications-panel" data-testid="notifications-panel">
      <Spin spinning={loading}>
        {sources.length > 1 ? (
          <Tabs size="small" items={sources.map((s) => ({ key: s.id, label: t(s.title), children: list(items[s.id] ?? []) }))} />
        ) : (
          list(sources.length ? (items[sources[0].id] ?? []) : [])
        )}
      </Spin>
    </div>
  );

  return (
    <Popover content={content} trigger="click" placement="bottomRight" title={t('header.notifications')} onOpenChange={(open) => open && void load()}>
      <Tooltip title={t('header.notifications')}>
        <Badge count={total} size="small">
          <Button type="text" icon={<BellOutlined />} aria-label={t('header.notifications')} data-testid="notifications" />
        </Badge>
      </Tooltip>
    </Popover>
  );
}
