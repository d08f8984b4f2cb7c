/**
 * The map screen of /map and /map-admin: every carrier and GPS tracker at its last known position, clustered,
 * coloured by transport status; warehouses with fences, drawn routes; filters; detail card;
 * live moves. The map chunk (provider A or B) loads only here.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert, Button, Select, Space, Tag, Tooltip } from 'antd';
import { AimOutlined, ReloadOutlined } from '@ant-design/icons';
import { request } from '@rti/console/plugin-api';
import { CITIES, DEFAULT_ZOOM, rgbCss } from './map-settings';
import type { ViewTarget } from './map-types';
import { MapView, preloadProvider } from './map-view';
import { DetailCard } from './detail-card';
import { useMapPoints } from './use-map-points';
import { useProvider } from './use-provider';
import { useEnumColors } from './use-status-colors';

type Option = { value: number; label: string };

function useOptions(path: string, label: string): Option[] {
  const [opts, setOpts] = useState<Option[]>([]);
  useEffect(() => {
    request<Array<Record<string, any>>>(path, {})
      .then((rows) => setOpts(rows.map((r) => ({ value: Number(r.id), label: String(r[label] ?? r.id) }))))
      .catch(() => setOpts([]));
  }, [path, label]);
  return opts;
}

function boundsOf(lng: number[], lat: number[]): [number, number, number, number] | undefined {
  if (!lng.length) return undefined;
  let w = 180, s = 90, e = -180, n = -90;
  for (let i = 0; i < lng.length; i++) {
    if (lng[i] < w) w = lng[i];
    if (lng[i] > e) e = lng[i];
    if (lat[i] < s) s = lat[i];
    if (lat[i] > n) n = lat[i];
  }
  return [w, s, e, n];
}

export function MapScreen({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const provider = useProvider();
  // the provider chunk downloads while /map/list is answered (the map mounts with the answer)
  useEffect(() => preloadProvider(provider), [provider]);
  const { values: statuses, color } = useEnumColors('transportStatus');
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const { answer, points, loading, error, reload } = useMapPoints(filters, admin);
  const [target, setTarget] = useState<ViewTarget>({ lng: CITIES[0].lng, lat: CITIES[0].lat, zoom: DEFAULT_ZOOM, seq: 0 });
  const [picked, setPicked] = useState<number | null>(null);
  const projects = useOptions('/project/all', 'name');
  const codes = useOptions('/carrier-code/all', 'code');
  const whs = useOptions('/warehouse/all', 'name');
  const statusLabel = (v: number) => t(statuses.find((s) => Number(s.value) === v)?.label ?? String(v));

  const fitAll = () => {
    if (!points) return;
    const b = boundsOf(points.lng, points.lat);
    if (b) setTarget((x) => ({ ...x, bounds: b, seq: x.seq + 1 }));
  };
  // first answer: the whole fleet in view (at most the default zoom); an empty map stays on the
  // default city. The map mounts only then, so its first frame is already the fitted view.
  const [fitted, setFitted] = useState(false);
  useEffect(() => {
    if (!points || fitted) return;
    setFitted(true);
    if (points.lng.length) fitAll();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points]);

  const counts = useMemo(() => {
    const c = new Map<number, number>();
    if (points) for (const s of points.st) c.set(s, (c.get(s) ?? 0) + 1);
    return c;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, points?.version]);

  const set = (k: string) => (v: unknown) => setFilters((f) => ({ ...f, [k]: Array.isArray(v) && !v.length ? undefined : v }));
  const sel = { allowClear: true, mode: 'multiple' as const, maxTagCount: 'responsive' as const, style: { width: 180 }, optionFilterProp: 'label' };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 150px)', minHeight: 420 }} data-testid="map-page">
      <Space wrap style={{ marginBottom: 8 }}>
        <Select {...sel} placeholder={t('map.project')} options={projects} onChange={set('projectId')} data-testid="map-filter-project" />
        <Select {...sel} placeholder={t('map.carrierCode')} options={codes} onChange={set('carrierCodeId')} data-testid="map-filter-code" />
        <Select {...sel} placeholder={t('map.warehouse')} options={whs} onChange={set('warehouseId')} data-testid="map-filter-warehouse" />
        <Select {...sel} placeholder={t('map.status')} options={statuses.map((s) => ({ value: Number(s.value), label: t(s.label) }))} onChange={set('transportStatus')} data-testid="map-filter-status" />
        <Select style={{ width: 130 }} value={null} placeholder={t('map.city')} options={CITIES.map((c) => ({ value: c.key, label: t(`map.cities.${c.key}`) }))} onChange={(k) => { const c = CITIES.find((x) => x.key === k)!; setTarget((x) => ({ lng: c.lng, lat: c.lat, zoom: DEFAULT_ZOOM, seq: x.seq + 1 })); }} />
        <Tooltip title={t('map.fitAll')}>
          <Button icon={<AimOutlined />} onClick={fitAll} data-testid="map-fit" />
        </Tooltip>
        <Tooltip title={t('map.reload')}>
          <Button icon={<ReloadOutlined />} loading={loading} onClick={() => void reload()} />
        </Tooltip>
        <span data-testid="map-count" data-count={points?.id.length ?? 0} style={{ color: '#595959' }}>
          {t('map.count', { count: points?.id.length ?? 0 })}
          {answer?.unplaced ? ` · ${t('map.unplaced', { count: answer.unplaced })}` : ''}
        </span>
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 8 }} />}
      <div style={{ position: 'relative', flex: 1, borderRadius: 6, overflow: 'hidden', border: '1px solid #f0f0f0' }}>
        {(fitted || error) && <MapView
          provider={provider}
          target={target}
          points={points}
          statusColor={color}
          warehouses={answer?.warehouses}
          routes={answer?.routes}
          onPick={setPicked}
          onFirstDraw={() => ((window as unknown as { __mapFirstDraw?: number }).__mapFirstDraw = performance.now())}
        />}
        <div style={{ position: 'absolute', left: 12, bottom: 12, background: 'rgba(255,255,255,.92)', padding: '6px 10px', borderRadius: 6, fontSize: 12, zIndex: 4 }} data-testid="map-legend">
          {statuses.map((s) => (
            <div key={String(s.value)}>
              <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: rgbCss(color(Number(s.value))), marginRight: 6 }} />
              {t(s.label)} <Tag bordered={false} style={{ marginLeft: 4 }}>{counts.get(Number(s.value)) ?? 0}</Tag>
            </div>
          ))}
        </div>
        {picked !== null && points && (
          <DetailCard
            id={points.id[picked]}
            kind={points.kind[picked]}
            statusLabel={statusLabel}
            statusColor={color}
            onClose={() => setPicked(null)}
            onHistory={(b) => navigate(`/map/history?${new URLSearchParams(Object.entries(b).map(([k, v]) => [k, String(v)]))}`)}
          />
        )}
      </div>
    </div>
  );
}
