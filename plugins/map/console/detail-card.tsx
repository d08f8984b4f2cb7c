/** The card of one clicked map point: carrier, beacon/GPS, battery, last seen, warehouse, alerts. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Descriptions, Empty, Spin, Tag } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { request, formatDateTime } from '@rti/console/plugin-api';
import { rgbCss } from './map-settings';

interface Detail {
  kind: 'carrier' | 'gps';
  carrier: Record<string, any> | null;
  beacon: { sn: string; battery: number | null; lastReportTime: string | null } | null;
  gps: { id: number; sn: string; battery: number | null; lastReportTime: string | null } | null;
  transportStatus: number | null;
  warehouse: string | null;
  lastSeen: string | null;
  alerts: Array<{ category: string; message: string; time: string }>;
}

const when = (v: string | null | undefined) => formatDateTime(v, 'datetime', '-');

export function DetailCard({
  id,
  kind,
  statusLabel,
  statusColor,
  onClose,
  onHistory,
}: {
  id: number;
  kind: number;
  statusLabel: (v: number) => string;
  statusColor: (v: number) => [number, number, number];
  onClose: () => void;
  onHistory?: (body: Record<string, number>) => void;
}) {
  const { t } = useTranslation();
  const [d, setD] = useState<Detail>();
  const [err, setErr] = useState<string>();
  useEffect(() => {
    setD(undefined);
    setErr(undefined);
    request<Detail>('/map/log', kind === 1 ? { carrierId: id } : { gpsId: id })
      .then(setD)
      .catch((e: Error) => setErr(e.message));
  }, [id, kind]);
  const battery = (b: number | null | undefined) =>
    b === null || b === undefined ? '-' : <Tag color={b >= 75 ? 'success' : b >= 25 ? 'warning' : 'error'}>{b}%</Tag>;
  return (
    <Card
      size="small"
      data-testid="map-detail"
      title={d?.carrier?.sn ?? d?.gps?.sn ?? '…'}
      extra={<Button size="small" type="text" icon={<CloseOutlined />} onClick={onClose} aria-label={t('map.close')} />}
      style={{ position: 'absolute', right: 12, top: 12, width: 'min(320px, calc(100% - 24px))', zIndex: 5, boxShadow: '0 6px 16px rgba(0,0,0,.15)' }}
    >
      {err ? (
        <Empty description={err} />
      ) : !d ? (
        <Spin />
      ) : (
        <>
          <Descriptions size="small" column={1} colon={false} labelStyle={{ width: 110 }}>
            {d.carrier && (
              <Descriptions.Item label={t('map.carrier')}>{d.carrier.name ? `${d.carrier.sn} · ${d.carrier.name}` : d.carrier.sn}</Descriptions.Item>
            )}
            {d.carrier && <Descriptions.Item label={t('map.carrierCode')}>{d.carrier.carrierCodeIdLabel ?? '-'}</Descriptions.Item>}
            {d.transportStatus !== null && (
              <Descriptions.Item label={t('map.status')}>
                <Tag color={rgbCss(statusColor(d.transportStatus))}>{statusLabel(d.transportStatus)}</Tag>
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('map.beacon')}>
              {d.beacon ? (
                <>
                  {d.beacon.sn} {battery(d.beacon.battery)}
                </>
              ) : (
                '-'
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('map.gps')}>
              {d.gps ? (
                <>
                  {d.gps.sn} {battery(d.gps.battery)}
                </>
              ) : (
                '-'
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('map.lastSeen')}>{when(d.lastSeen)}</Descriptions.Item>
            <Descriptions.Item label={t('map.warehouse')}>{d.warehouse ?? '-'}</Descriptions.Item>
          </Descriptions>
          <div style={{ fontWeight: 600, margin: '8px 0 4px' }}>
            {t('map.alerts')} ({d.alerts.length})
          </div>
          {d.alerts.length === 0 ? (
            <span style={{ color: '#8c8c8c' }}>{t('map.noAlerts')}</span>
          ) : (
            d.alerts.slice(0, 5).map((a, i) => (
              <div key={i} style={{ fontSize: 12, marginBottom: 4 }}>
                <Tag color="error">{a.category}</Tag>
                {a.message} <span style={{ color: '#8c8c8c' }}>{when(a.time)}</span>
              </div>
            ))
          )}
          {/* the history link only for users who may open the history page */}
          {onHistory && (d.carrier || d.gps) && (
            <Button
              size="small"
              type="link"
              style={{ padding: 0, marginTop: 6 }}
              data-testid="map-detail-history"
              onClick={() => onHistory(d.carrier ? { carrierId: Number(d.carrier.id) } : { gpsId: d.gps!.id })}
            >
              {t('map.history')}
            </Button>
          )}
        </>
      )}
    </Card>
  );
}
