import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Empty, List, Popover, Tabs, Tag, Tooltip, Typography } from 'antd';
import { AlertOutlined } from '@ant-design/icons';
import { resourceViewCode } from '@rti/metadata/browser';
import { useMetadata } from '@rti/console/plugin-api';
import { useShell } from '@rti/console/plugin-api';
import { mayUse } from '@rti/console/plugin-api';
import { ALERT_KINDS, PER_CATEGORY } from './alert-kinds';
import { alertFeed, unsolvedTotal, type FeedState } from './alert-feed';
import { alertItem, setKnownEnums } from './alert-items';

/** widest a category tab's name is drawn: five tabs of Japanese names stay in the 520 px panel */
const TAB_NAME_MAX_PX = 84;

/**
 * Header alert menu (SPEC §2 notification menu): unsolved alerts only, at most 15 per
 * category, five categories; each item shows the device serial, the reason and the created
 * or report time and opens the alert's detail. The badge counts every unsolved alert and
 * follows the live stream (polling every 30 s without it).
 */
export default function AlertBell() {
  const { t } = useTranslation();
  const { enums, resources, menu } = useMetadata();
  const { access, routes } = useShell();
  const navigate = useNavigate();
  const [state, setState] = useState<FeedState>(alertFeed.state);
  const [open, setOpen] = useState(false);

  useEffect(() => setKnownEnums(enums), [enums]);
  useEffect(() => alertFeed.subscribe(setState), []);

  const kinds = ALERT_KINDS.filter((k) => resources[k.resource] && access.has(resourceViewCode(resources[k.resource], 'list', menu)));
  const total = unsolvedTotal(state);
  const go = (path: string) => {
    setOpen(false);
    void navigate(path);
  };

  const content = (
    // never wider than the screen (a phone is 390 px); tabs that do not fit scroll, with antd's "more" menu
    <div style={{ width: 'min(520px, calc(100vw - 32px))' }} data-testid="alert-panel">
      <Tabs
        size="small"
        items={kinds.map((k) => {
          const feed = state[k.category];
          const rows = (feed?.list ?? []).slice(0, PER_CATEGORY);
          return {
            key: k.category,
            label: (
              <span data-testid={`alert-tab:${k.category}`} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
                {/* a long category name (ja-JP "スレーブゲートウェイ") ends in an ellipsis, named in full by its tooltip */}
                <span
                  className="alert-tab-name"
                  title={t(k.title)}
                  style={{ maxWidth: TAB_NAME_MAX_PX, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                >
                  {t(k.title)}
                </span>
                <Badge count={feed?.total ?? 0} size="small" overflowCount={99} />
              </span>
            ),
            children: rows.length ? (
              <>
                <List
                  size="small"
                  style={{ maxHeight: 360, overflow: 'auto' }}
                  dataSource={rows.map((r) => alertItem(k, r, enums, t))}
                  renderItem={(it) => (
                    // an alert opens its detail only for users who may open that page
                    <List.Item
                      {...(it.path && mayUse({ open: it.path }, routes, access) ? { style: { cursor: 'pointer' }, onClick: () => go(it.path!) } : {})}
                      data-testid={`alert-item:${it.key}`}
                    >
                      <List.Item.Meta
                        title={
                          <span>
                            <Tag color="error">{t('enums.alertStatus.unsolved')}</Tag>
                            {it.title}
                          </span>
                        }
                        description={
                          <>
                            <div>{it.description}</div>
                            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                              {it.time}
                            </Typography.Text>
                          </>
                        }
                      />
                    </List.Item>
                  )}
                />
                <Button type="link" block onClick={() => go(k.route)} data-testid={`alert-all:${k.category}`}>
                  {t('monitor.viewAll', { count: feed?.total ?? rows.length })}
                </Button>
              </>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitor.noUnsolved')} />
            ),
          };
        })}
      />
    </div>
  );

  if (!kinds.length) return null;
  return (
    <Popover
      content={content}
      trigger="click"
      placement="bottomRight"
      title={t('monitor.unsolvedAlerts')}
      open={open}
      onOpenChange={(o) => (setOpen(o), o && void alertFeed.refresh().catch(() => undefined))}
    >
      <Tooltip title={t('monitor.unsolvedAlerts')}>
        <Badge count={total} size="small" overflowCount={99} data-testid="alert-badge" data-count={total}>
          <Button type="text" icon={<AlertOutlined />} aria-label={t('monitor.unsolvedAlerts')} data-testid="alert-bell" />
        </Badge>
      </Tooltip>
    </Popover>
  );
}
