/**
 * /vehicle: the fleet of vehicles (carriers of "vehicle" carrier codes) with last position,
 * speed, motion, tracker status and battery, and the current trip. Counts per motion filter
 * the table; a row opens its track. Refreshed every 30 s.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '@rti/console/plugin-api';
import { Alert, Badge, Button, Input, Progress, Segmented, Space, Table, Tag, Tooltip } from 'antd';
import { DesktopOutlined, ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import { Guarded, request, useAutoRefresh } from '@rti/console/plugin-api';
import { useMetadata } from '@rti/console/plugin-api';
import type { VehicleListAnswer, VehicleRow } from '../shared/vehicle-answer';
import type { Motion } from '../shared/vehicle-status';
import { fmtNum, fmtTime } from './format';
import { MOTIONS, MOTION_TAG } from './motion';

const REFRESH_MS = 30_000;

export default function VehicleListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enums } = useMetadata();
  const [sn, setSn] = useState('');
  const [motion, setMotion] = useState<Motion | 'all'>('all');
  const [page, setPage] = useState({ page: 1, limit: 10 });
  const [syncing, setSyncing] = useState(false);
  const load = useCallback(
    () => request<VehicleListAnswer>('/jimi/list', { sn: sn || undefined, motion: motion === 'all' ? undefined : motion, ...page }),
    [sn, motion, page],
  );
  const { data, error, loading, reload } = useAutoRefresh(load, REFRESH_MS);
  const enumTag = (name: string, v: number | null) => {
    const e = (enums[name] ?? []).find((x) => Number(x.value) === v);
    return e ? <Tag color={e.color}>{t(e.label)}</Tag> : '—';
  };
  const sync = async () => {
    setSyncing(true);
    try {
      await request('/jimi/synchronize', {});
      await reload();
    } finally {
      setSyncing(false);
    }
  };
  const counts = data?.counts;
  const total = counts ? counts.moving + counts.stopped + counts.offline : 0;

  return (
    <div data-testid="vehicle-list">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('vehicle.searchSn')}
          style={{ width: 240 }}
          onSearch={(v) => (setSn(v.trim()), setPage((p) => ({ ...p, page: 1 })))}
          data-testid="vehicle-search"
        />
        <Segmented
          value={motion}
          onChange={(v) => (setMotion(v as Motion | 'all'), setPage((p) => ({ ...p, page: 1 })))}
          options={[
            { value: 'all', label: `${t('vehicle.all')} ${total}` },
            ...MOTIONS.map((m) => ({
              value: m,
              label: (
                <span data-testid={`vehicle-count:${m}`} data-count={counts?.[m] ?? 0}>
                  {t(`vehicle.motion.${m}`)} {counts?.[m] ?? 0}
                </span>
              ),
            })),
          ]}
        />
        <Tooltip title={t('vehicle.reload')}>
          <Button icon={<ReloadOutlined />} loading={loading} onClick={() => void reload()} />
        </Tooltip>
        <Guarded call="/jimi/synchronize">
          <Tooltip title={t('vehicle.synchronizeHint')}>
            <Button icon={<SyncOutlined />} loading={syncing} onClick={() => void sync()}>
              {t('vehicle.synchronize')}
            </Button>
          </Tooltip>
        </Guarded>
        <Guarded open="/vehicle/monitor">
          <Button icon={<DesktopOutlined />} onClick={() => window.open('/vehicle/monitor', '_blank')} data-testid="vehicle-open-monitor">
            {t('vehicle.openMonitor')}
          </Button>
        </Guarded>
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Table<VehicleRow>
        rowKey="id"
        size="small"
        loading={loading && !data}
        dataSource={data?.list}
        scroll={{ x: 1300 }}
        onRow={(r) => ({ onClick: () => navigate(`/vehicle/track?carrierId=${r.id}`), style: { cursor: 'pointer' } })}
        pagination={{
          current: page.page,
          pageSize: page.limit,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          onChange: (p, l) => setPage({ page: p, limit: l }),
        }}
        columns={[
          {
            title: t('vehicle.col.sn'),
            dataIndex: 'sn',
            fixed: 'left',
            render: (v, r) => (
              <>
                <b>{v}</b>
                {r.name ? <div style={{ color: '#8c8c8c', fontSize: 12 }}>{r.name}</div> : null}
              </>
            ),
          },
          { title: t('vehicle.col.carrierCode'), dataIndex: 'carrierCode' },
          { title: t('vehicle.col.gps'), dataIndex: 'gpsSn', render: (v) => v ?? <Tag>{t('vehicle.noTracker')}</Tag> },
          { title: t('vehicle.col.motion'), dataIndex: 'motion', render: (m: Motion) => <Tag color={MOTION_TAG[m]}>{t(`vehicle.motion.${m}`)}</Tag> },
          { title: t('vehicle.col.speed'), dataIndex: 'speed', align: 'right', render: (v) => fmtNum(v) },
          { title: t('vehicle.col.status'), dataIndex: 'status', render: (v) => enumTag('deviceStatus', v) },
          {
            title: t('vehicle.col.battery'),
            dataIndex: 'battery',
            width: 120,
            render: (v: number | null) => (v === null ? '—' : <Progress percent={Math.round(v)} size="small" status={v < 20 ? 'exception' : 'normal'} />),
          },
          { title: t('vehicle.col.position'), key: 'pos', render: (_, r) => (r.lng === null ? '—' : `${r.lng.toFixed(5)}, ${r.lat!.toFixed(5)}`) },
          { title: t('vehicle.col.lastSeen'), dataIndex: 'lastSeen', render: fmtTime },
          { title: t('vehicle.col.transport'), dataIndex: 'transportStatus', render: (v) => enumTag('transportStatus', v) },
          {
            title: t('vehicle.col.trip'),
            key: 'trip',
            render: (_, r) =>
              r.warehouse ? (
                <Badge status="success" text={r.warehouse} />
              ) : r.departedFrom ? (
                <span>{t('vehicle.leftAt', { from: r.departedFrom, time: fmtTime(r.departedAt) })}</span>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </div>
  );
}
