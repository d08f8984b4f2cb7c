/**
 * /vehicle/track: one vehicle's track over a range (today, 3 days, 7 days or custom) on the
 * map — the map plugin's provider and track drawing — with its stops, the trips between them
 * and the range's sums. Full playback and sensor charts are one click away (/map/history).
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigate } from '@rti/console/plugin-api';
import { Alert, Button, Card, DatePicker, Descriptions, Empty, Radio, Select, Space, Table } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { Guarded, request } from '@rti/console/plugin-api';
import { CITIES, DEFAULT_ZOOM } from '@rti/plugin-map/console/map-settings';
import type { TrackOverlay, ViewTarget } from '@rti/plugin-map/console/map-types';
import { MapView } from '@rti/plugin-map/console/map-view';
import { useProvider } from '@rti/plugin-map/console/use-provider';
import type { Trip } from '../shared/trips';
import type { VehicleHistoryAnswer, VehicleListAnswer } from '../shared/vehicle-answer';
import { boundsOf, fmtDuration, fmtNum, fmtTime, tzOffset } from './format';

const DAY = 86_400_000;

function useVehicleOptions(search: string) {
  const [opts, setOpts] = useState<Array<{ value: number; label: string }>>([]);
  useEffect(() => {
    let live = true;
    request<VehicleListAnswer>('/jimi/list', { sn: search.trim() || undefined, limit: 50 })
      .then((a) => live && setOpts(a.list.map((v) => ({ value: v.id, label: `${v.sn}${v.gpsSn ? ` · ${v.gpsSn}` : ''}` }))))
      .catch(() => live && setOpts([]));
    return () => void (live = false);
  }, [search]);
  return opts;
}

export default function VehicleTrackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const provider = useProvider();
  const [params, setParams] = useSearchParams();
  const carrierId = params.get('carrierId') ? Number(params.get('carrierId')) : undefined;
  const [search, setSearch] = useState('');
  const options = useVehicleOptions(search);
  const [preset, setPreset] = useState<'1' | '3' | '7' | 'custom'>('1');
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().startOf('day'), dayjs()]);
  const [data, setData] = useState<VehicleHistoryAnswer>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const [target, setTarget] = useState<ViewTarget>({ lng: CITIES[0].lng, lat: CITIES[0].lat, zoom: DEFAULT_ZOOM, seq: 0 });
  const [focus, setFocus] = useState<Trip | null>(null);

  const time = useMemo(() => {
    if (preset === 'custom') return [range[0].valueOf(), range[1].valueOf()];
    const to = Date.now();
    return [preset === '1' ? dayjs().startOf('day').valueOf() : to - Number(preset) * DAY, to];
  }, [preset, range]);

  useEffect(() => {
    if (!carrierId) return;
    setLoading(true);
    setError(undefined);
    setFocus(null);
    request<VehicleHistoryAnswer>('/jimi/history', { carrierId, time, tz: tzOffset() }, { timeoutMs: 120_000 })
      .then((h) => {
        setData(h);
        const b = boundsOf(h.track.lng, h.track.lat);
        if (b) setTarget((x) => ({ ...x, zoom: DEFAULT_ZOOM, bounds: b, seq: x.seq + 1 }));
      })
      .catch((e: Error) => (setData(undefined), setError(e.message)))
      .finally(() => setLoading(false));
  }, [carrierId, time]);

  const overlay = useMemo<TrackOverlay | undefined>(() => {
    if (!data) return undefined;
    const tr = data.track;
    return {
      path: tr.lng.map((x, i) => [x, tr.lat[i]] as [number, number]),
      stops: data.stops,
      events: data.events.filter((e) => e.lng !== null).map((e) => ({ lng: e.lng!, lat: e.lat!, code: e.code })),
      cursor: focus ? focus.to : tr.t.length ? [tr.lng[tr.lng.length - 1], tr.lat[tr.lat.length - 1]] : null,
    };
  }, [data, focus]);

  const showTrip = (trip: Trip) => {
    setFocus(trip);
    const b = boundsOf([trip.from[0], trip.to[0]], [trip.from[1], trip.to[1]]);
    if (b) setTarget((x) => ({ ...x, bounds: b, seq: x.seq + 1 }));
  };
  const s = data?.summary;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, height: 'calc(100vh - 150px)', minHeight: 560 }} data-testid="vehicle-track">
      <Space wrap>
        <Select
          showSearch
          style={{ width: 280 }}
          placeholder={t('vehicle.pickVehicle')}
          value={carrierId}
          options={options}
          filterOption={false}
          onSearch={setSearch}
          onChange={(v) => setParams(v ? { carrierId: String(v) } : {})}
          data-testid="vehicle-track-subject"
        />
        <Radio.Group
          value={preset}
          onChange={(e) => setPreset(e.target.value)}
          optionType="button"
          options={[
            { value: '1', label: t('vehicle.today') },
            { value: '3', label: t('vehicle.days', { count: 3 }) },
            { value: '7', label: t('vehicle.days', { count: 7 }) },
            { value: 'custom', label: t('vehicle.custom') },
          ]}
        />
        {preset === 'custom' && <DatePicker.RangePicker showTime value={range} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />}
        <Guarded open="/map/history">
          <Button icon={<HistoryOutlined />} disabled={!carrierId} onClick={() => navigate(`/map/history?carrierId=${carrierId}`)}>
            {t('vehicle.playback')}
          </Button>
        </Guarded>
      </Space>
      {error && <Alert type="error" showIcon message={error} />}
      <div style={{ display: 'flex', gap: 8, flex: 1, minHeight: 0 }}>
        <div style={{ position: 'relative', flex: 3, borderRadius: 6, overflow: 'hidden', border: '1px solid #f0f0f0' }}>
          <MapView provider={provider} target={target} statusColor={() => [22, 119, 255]} track={overlay} />
          {!carrierId && <Empty style={{ position: 'absolute', top: '40%', width: '100%' }} description={t('vehicle.pickVehicle')} />}
        </div>
        <Card size="small" style={{ flex: 2, minWidth: 320, overflow: 'auto' }} loading={loading} title={data?.subject.carrierSn ?? t('vehicle.trips')}>
          {s && (
            <Descriptions size="small" column={2} style={{ marginBottom: 8 }} data-testid="vehicle-track-summary">
              <Descriptions.Item label={t('vehicle.col.distance')}>{fmtNum(s.distanceKm, 2)}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.maxSpeed')}>{fmtNum(s.maxSpeed)}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.running')}>{fmtDuration(s.runningMs)}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.stopping')}>{fmtDuration(s.stoppingMs)}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.stops')}>{data!.stops.length}</Descriptions.Item>
              <Descriptions.Item label={t('vehicle.col.alarms')}>{s.alarms}</Descriptions.Item>
            </Descriptions>
          )}
          <Table<Trip>
            size="small"
            rowKey="start"
            pagination={false}
            dataSource={data?.trips}
            locale={{ emptyText: t('vehicle.noTrips') }}
            onRow={(r) => ({ onClick: () => showTrip(r), style: { cursor: 'pointer' } })}
            columns={[
              { title: t('vehicle.departure'), dataIndex: 'start', render: fmtTime },
              { title: t('vehicle.arrival'), dataIndex: 'end', render: fmtTime },
              { title: 'km', dataIndex: 'distanceKm', align: 'right', render: (v) => fmtNum(v, 2) },
              { title: t('vehicle.duration'), key: 'd', render: (_, r) => fmtDuration(r.end - r.start) },
            ]}
          />
        </Card>
      </div>
    </div>
  );
}
