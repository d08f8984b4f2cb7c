import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Empty, List, Table, Tag, Typography } from 'antd';
import { useMetadata, formatDateTime } from '@rti/console/plugin-api';
import { EChart } from '@rti/console/echart';
import { batteryOption, bars, CATEGORY_COLOURS, donut, inventoryOption, lifeCycleOption, mapOption, trendOption, type EnumLabel } from './chart-options';
import type { DashboardData } from './dashboard-data';

/** value → translated label and colour of one enum of metadata */
export function useEnumLabel(name: string): (v: number | null) => EnumLabel {
  const { enums } = useMetadata();
  const { t } = useTranslation();
  return useMemo(() => {
    const values = enums[name] ?? [];
    return (v) => {
      const e = values.find((x) => x.value === v);
      return e ? { label: t(e.label), color: e.color } : { label: v === null ? '-' : String(v) };
    };
  }, [enums, name, t]);
}

export interface PanelSpec {
  key: string;
  title: string;
  extra?: ReactNode;
  body: ReactNode;
}

/** every panel of the dashboards, in display order, for a light or dark (big-screen) frame */
export function useDashboardPanels(data: DashboardData | undefined, dark: boolean, chartHeight: number): PanelSpec[] {
  const { t } = useTranslation();
  const L = (k: string) => t(k);
  const transport = useEnumLabel('transportStatus');
  const status = useEnumLabel('carrierStatus');
  const reasonEnums = {
    carrier: useEnumLabel('carrierAlertReason'),
    beacon: useEnumLabel('beaconAlertReason'),
    slaveGateway: useEnumLabel('gatewayAlertReason'),
    masterGateway: useEnumLabel('gatewayAlertReason'),
  } as Record<string, (v: number | null) => EnumLabel>;
  if (!data) return [];
  const theme = dark ? 'dark' : undefined;
  const chart = (key: string, option: object, empty: boolean) =>
    empty ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} style={{ height: chartHeight - 40 }} />
    ) : (
      <EChart option={{ backgroundColor: 'transparent', ...option }} height={chartHeight} theme={theme} testId={`chart:${key}`} />
    );
  const s = data.summary;
  const timeText = (v: string) => formatDateTime(v, 'minute');
  const textStyle = dark ? { color: '#d6e4ff' } : undefined;

  return [
    {
      key: 'transport',
      title: t('dashboard.panel.transport'),
      body: chart('transport', donut(s.carriers.byTransportStatus, transport, dark), !s.carriers.total),
    },
    { key: 'status', title: t('dashboard.panel.status'), body: chart('status', bars(s.carriers.byStatus, status, dark), !s.carriers.total) },
    { key: 'inventory', title: t('dashboard.panel.inventory'), body: chart('inventory', inventoryOption(s.inventory, L, dark), !s.inventory.length) },
    { key: 'trend', title: t('dashboard.panel.trend'), body: chart('trend', trendOption(s.alertTrend, L, dark), false) },
    {
      key: 'battery',
      title: t('dashboard.panel.battery'),
      extra: (
        <Typography.Text style={textStyle} type={dark ? undefined : 'secondary'}>
          {t('dashboard.beacons', { count: data.battery.total })}
        </Typography.Text>
      ),
      body: chart('battery', batteryOption(data.battery, L, dark), !data.battery.total),
    },
    { key: 'life', title: t('dashboard.panel.life'), body: chart('life', lifeCycleOption(s.lifeCycle, L, dark), !s.carriers.total) },
    {
      key: 'map',
      title: t('dashboard.panel.map'),
      extra: <Tag color="processing">{t('dashboard.inTransit', { count: data.map.inTransit })}</Tag>,
      body: chart('map', mapOption(data.map, L, dark), !data.map.warehouses.length),
    },
    {
      key: 'timeouts',
      title: t('dashboard.panel.timeouts'),
      extra: <Tag color={data.timeouts.total ? 'error' : 'success'}>{data.timeouts.total}</Tag>,
      body: (
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          scroll={{ y: chartHeight - 40 }}
          dataSource={data.timeouts.list}
          locale={{ emptyText: t('dashboard.noTimeouts') }}
          data-testid="dashboard-timeouts"
          columns={[
            { title: t('dashboard.carrier'), dataIndex: 'carrierSn', width: 140 },
            { title: t('dashboard.warehouse'), dataIndex: 'warehouse', render: (v) => v ?? '-' },
            {
              title: t('dashboard.overdue'),
              dataIndex: 'hours',
              width: 90,
              render: (h: number) => <Tag color="error">{t('dashboard.hours', { count: h })}</Tag>,
            },
          ]}
        />
      ),
    },
    {
      key: 'messages',
      title: t('dashboard.panel.messages'),
      extra: <Tag color="error">{Object.values(data.messages.unsolved).reduce((a, b) => a + b, 0)}</Tag>,
      body: data.messages.list.length ? (
        <List
          size="small"
          style={{ height: chartHeight, overflow: 'auto' }}
          data-testid="dashboard-messages"
          dataSource={data.messages.list}
          renderItem={(m) => (
            <List.Item style={{ padding: '4px 0' }}>
              <span style={{ display: 'flex', gap: 8, width: '100%', alignItems: 'baseline', ...textStyle }}>
                <Tag color={CATEGORY_COLOURS[m.category]}>{t(`dashboard.category.${m.category}`)}</Tag>
                <b>{m.sn}</b>
                <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {(reasonEnums[m.category] ? reasonEnums[m.category](m.reason as number).label : m.reason) ?? ''} {m.message ?? ''}
                </span>
                <span style={{ opacity: 0.7 }}>{timeText(m.time)}</span>
              </span>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noMessages')} />
      ),
    },
  ];
}
