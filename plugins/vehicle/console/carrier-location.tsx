/**
 * One located carrier: where it is on the map and the facts behind it (source of the
 * position, warehouse, gateway, vehicle, devices, last seen, newest in/out records). Used by
 * the locating centre and the standalone /carrier-locating window.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Descriptions, Empty, List, Spin, Tag } from 'antd';
import { request } from '@rti/console/plugin-api';
import { useMetadata } from '@rti/console/plugin-api';
import { CITIES, DEFAULT_ZOOM, tagRgb } from '@rti/plugin-map/console/map-settings';
import type { PointSet, ViewTarget } from '@rti/plugin-map/console/map-types';
import { MapView } from '@rti/plugin-map/console/map-view';
import { useProvider } from '@rti/plugin-map/console/use-provider';
import type { LocatedCarrier } from '../shared/vehicle-answer';
import { fmtTime } from './format';

export function useLocatedCarrier(carrierId: number | undefined) {
  const [data, setData] = useState<LocatedCarrier>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!carrierId) return setData(undefined);
    setLoading(true);
    setError(undefined);
    request<{ list: LocatedCarrier[] }>('/jimi/carrier/gps', { carrierId })
      .then((a) => setData(a.list[0]))
      .catch((e: Error) => (setData(undefined), setError(e.message)))
      .finally(() => setLoading(false));
  }, [carrierId]);
  return { data, error, loading };
}

export function CarrierLocation({ carrierId, onReady }: { carrierId: number | undefined; onReady?: () => void }) {
  const { t } = useTranslation();
  const { enums } = useMetadata();
  const provider = useProvider();
  const { data, error, loading } = useLocatedCarrier(carrierId);
  const [target, setTarget] = useState<ViewTarget>({ lng: CITIES[0].lng, lat: CITIES[0].lat, zoom: DEFAULT_ZOOM, seq: 0 });
  useEffect(() => {
    if (data?.lng != null && data.lat != null) setTarget((x) => ({ lng: data.lng!, lat: data.lat!, zoom: DEFAULT_ZOOM, seq: x.seq + 1 }));
  }, [data]);
  const points = useMemo<PointSet | undefined>(
    () =>
      data?.lng != null && data.lat != null
        ? { id: [data.id], kind: [1], lng: [data.lng], lat: [data.lat], st: [data.transportStatus], version: data.id }
        : data
          ? { id: [], kind: [], lng: [], lat: [], st: [], version: 0 }
          : undefined,
    [data],
  );
  const status = (enums.transportStatus ?? []).find((e) => Number(e.value) === data?.transportStatus);
  const direction = (v: number) => (enums.inoutDirection ?? []).find((e) => Number(e.value) === v);

  if (!carrierId) return <Empty description={t('vehicle.pickCarrier')} />;
  return (
    <div style={{ display: 'flex', gap: 8, height: '100%', minHeight: 0 }} data-testid="carrier-location">
      <div style={{ position: 'relative', flex: 3, borderRadius: 6, overflow: 'hidden', border: '1px solid #f0f0f0', minHeight: 320 }}>
        {points && <MapView provider={provider} target={target} points={points} statusColor={() => tagRgb(status?.color)} onFirstDraw={onReady} />}
        {loading && <Spin style={{ position: 'absolute', top: '45%', left: '50%' }} />}
      </div>
      <div style={{ flex: 2, minWidth: 300, overflow: 'auto' }}>
        {error && <Alert type="error" showIcon message={error} />}
        {data && (
          <>
            <Descriptions size="small" column={1} bordered title={data.sn} data-testid="carrier-location-facts">
              <Descriptions.Item label={t('vehicle.source')}>
                <Tag color={data.source ? 'blue' : 'default'} data-testid="carrier-location-source" data-source={data.source ?? ''}>
                  {t(`vehicle.sources.${data.source ?? 'none'}`)}
                </Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.carrierCode')}>{data.carrierCode ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.transport')}>{status ? <Tag color={status.color}>{t(status.label)}</Tag> : '—'}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.warehouse')}>{data.warehouse?.name ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.gateway')}>
                {data.gateway ? `${data.gateway.sn}${data.gateway.name ? ` · ${data.gateway.name}` : ''}` : '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('vehicle.onVehicle')}>{data.vehicle?.sn ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.beacon')}>
                {data.beacon ? `${data.beacon.sn} (${data.beacon.mac ?? '—'}) ${data.beacon.battery ?? '—'}%` : '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.gps')}>{data.gps ? `${data.gps.sn} ${data.gps.battery ?? '—'}%` : '—'}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.position')}>
                {data.lng != null ? `${data.lng.toFixed(5)}, ${data.lat!.toFixed(5)}` : '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.lastSeen')}>{fmtTime(data.lastSeen)}</Descriptions.Item>
            </Descriptions>
            <List
              size="small"
              header={<b>{t('vehicle.recentInOut')}</b>}
              dataSource={data.recent ?? []}
              locale={{ emptyText: t('vehicle.noInOut') }}
              renderItem={(r) => {
                const d = direction(r.direction);
                return (
                  <List.Item>
                    {d ? <Tag color={d.color}>{t(d.label)}</Tag> : null} {r.warehouse ?? '—'}{' '}
                    <span style={{ color: '#8c8c8c', marginLeft: 'auto' }}>{fmtTime(r.time)}</span>
                  </List.Item>
                );
              }}
            />
          </>
        )}
      </div>
    </div>
  );
}
