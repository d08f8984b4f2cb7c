/**
 * The map screen of /map and /map-admin: every carrier and GPS tracker at its last known position, clustered,
 * coloured by transport status; warehouses with fences, drawn routes; filters; detail card;
 * live moves. The map chunk (provider A or B) loads only here.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigate } from '@rti/console/plugin-api';
import { Alert, Button, Input, Select, Space, Tag, Tooltip } from 'antd';
import { AimOutlined, DownOutlined, ReloadOutlined, UpOutlined } from '@ant-design/icons';
import { request, useCan } from '@rti/console/plugin-api';
import { CITIES, DEFAULT_ZOOM, rgbCss } from './map-settings';
import type { PointSet, ViewTarget } from './map-types';
import { MapView, preloadProvider } from './map-view';
import { DetailCard } from './detail-card';
import { StackCard } from './stack-card';
import { legendPadding } from './legend-padding';
import { useMapPoints } from './use-map-points';
import { useProvider } from './use-provider';
import { useEnumColors } from './use-status-colors';

type Option = { value: number; label: string };
const LEGEND_KEY = 'admin-map-legend';

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
  let w = 180,
    s = 90,
    e = -180,
    n = -90;
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
  // "Show on map" links carry the serial (?sn=): the map opens filtered to it
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<Record<string, unknown>>(() => (params.get('sn') ? { sn: params.get('sn') } : {}));
  const [snText, setSnText] = useState(params.get('sn') ?? '');
  const { answer, points, loading, error, reload } = useMapPoints(filters, admin);
  const canHistory = useCan({ open: '/map/history' });
  // legend: collapsible (kept in this browser; folded by default on a phone), and the fit
  // leaves room for it so no marker ends up under it
  const [legendOpen, setLegendOpen] = useState(() => localStorage.getItem(LEGEND_KEY) ?? (window.innerWidth > 600 ? '1' : '0'));
  const legend = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [stack, setStack] = useState<number[] | null>(null);
  const [target, setTarget] = useState<ViewTarget>({ lng: CITIES[0].lng, lat: CITIES[0].lat, zoom: DEFAULT_ZOOM, seq: 0 });
  const [picked, setPicked] = useState<number | null>(null);
  const projects = useOptions('/project/all', 'name');
  const codes = useOptions('/carrier-code/all', 'code');
  const whs = useOptions('/warehouse/all', 'name');
  const statusLabel = (v: number) => t(statuses.find((s) => Number(s.value) === v)?.label ?? String(v));

  const fitAll = () => {
    if (!points) return;
    const b = boundsOf(points.lng, points.lat);
    const box = legend.current?.getBoundingClientRect();
    const map = frame.current?.getBoundingClientRect();
    const padding = legendPadding(map ? { width: map.width, height: map.height } : undefined, box ? { width: box.width, height: box.height } : undefined);
    if (b) setTarget((x) => ({ ...x, bounds: b, padding, seq: x.seq + 1 }));
  };
  // the (kept-alive) map opened again from another record's "Show on map"
  const linkedSn = params.get('sn');
  useEffect(() => {
    if (linkedSn === null) return;
    setSnText(linkedSn);
    setFilters((f) => (f.sn === linkedSn ? f : { ...f, sn: linkedSn || undefined }));
  }, [linkedSn]);
  // a serial typed in the search box filters the map (after a short pause)
  useEffect(() => {
    const sn = snText.trim();
    if ((filters.sn ?? '') === sn) return;
    const id = setTimeout(() => setFilters((f) => ({ ...f, sn: sn || undefined })), 400);
    return () => clearTimeout(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [snText]);
  // every new filter answer is brought into view, like the first one
  const fittedFor = useRef<unknown>(null);
  useEffect(() => {
    if (!points || !fitted || fittedFor.current === points) return;
    fittedFor.current = points;
    setPicked(null);
    setStack(null);
    if (points.lng.length) fitAll();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points]);
  // test hook beside the providers' __mapProject: the positions on the map
  useEffect(() => {
    (window as unknown as { __mapPoints?: PointSet }).__mapPoints = points;
  }, [points]);
  /** a click on a marker: its card, or for several at one position the list to choose from */
  const pick = (i: number) => {
    if (!points) return;
    const same: number[] = [];
    for (let j = 0; j < points.id.length; j++) if (points.lng[j] === points.lng[i] && points.lat[j] === points.lat[i]) same.push(j);
    if (same.length > 1) {
      setPicked(null);
      setStack(same);
    } else {
      setStack(null);
      setPicked(i);
    }
  };
  // first answer: the whole fleet in view (at most the default zoom); an empty map stays on the
  // default city. The map mounts only then, so its first frame is already the fitted view.
  const [fitted, setFitted] = useState(false);
  useEffect(() => {
    if (!points || fitted) return;
    setFitted(true);
    fittedFor.current = points;
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
        <Input.Search
          allowClear
          style={{ width: 180 }}
          placeholder={t('map.snSearch')}
          value={snText}
          onChange={(e) => setSnText(e.target.value)}
          onSearch={(v) => setFilters((f) => ({ ...f, sn: v.trim() || undefined }))}
          data-testid="map-filter-sn"
        />
        <Select {...sel} placeholder={t('map.project')} options={projects} onChange={set('projectId')} data-testid="map-filter-project" />
        <Select {...sel} placeholder={t('map.carrierCode')} options={codes} onChange={set('carrierCodeId')} data-testid="map-filter-code" />
        <Select {...sel} placeholder={t('map.warehouse')} options={whs} onChange={set('warehouseId')} data-testid="map-filter-warehouse" />
        <Select
          {...sel}
          placeholder={t('map.status')}
          options={statuses.map((s) => ({ value: Number(s.value), label: t(s.label) }))}
          onChange={set('transportStatus')}
          data-testid="map-filter-status"
        />
        <Select
          style={{ width: 130 }}
          value={null}
          placeholder={t('map.city')}
          options={CITIES.map((c) => ({ value: c.key, label: t(`map.cities.${c.key}`) }))}
          onChange={(k) => {
            const c = CITIES.find((x) => x.key === k)!;
            setTarget((x) => ({ lng: c.lng, lat: c.lat, zoom: DEFAULT_ZOOM, seq: x.seq + 1 }));
          }}
        />
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
      <div ref={frame} style={{ position: 'relative', flex: 1, borderRadius: 6, overflow: 'hidden', border: '1px solid #f0f0f0' }}>
        {(fitted || error) && (
          <MapView
            provider={provider}
            target={target}
            points={points}
            statusColor={color}
            warehouses={answer?.warehouses}
            routes={answer?.routes}
            onPick={pick}
            onFirstDraw={() => ((window as unknown as { __mapFirstDraw?: number }).__mapFirstDraw = performance.now())}
          />
        )}
        <div
          ref={legend}
          style={{
            position: 'absolute',
            left: 12,
            bottom: 12,
            background: 'rgba(255,255,255,.92)',
            padding: '6px 10px',
            borderRadius: 6,
            fontSize: 12,
            zIndex: 4,
          }}
          data-testid="map-legend"
          data-open={legendOpen === '1'}
        >
          <Button
            type="text"
            size="small"
            style={{ padding: 0, height: 20, fontSize: 12 }}
            icon={legendOpen === '1' ? <DownOutlined /> : <UpOutlined />}
            onClick={() => {
              const next = legendOpen === '1' ? '0' : '1';
              localStorage.setItem(LEGEND_KEY, next);
              setLegendOpen(next);
            }}
            aria-expanded={legendOpen === '1'}
            data-testid="map-legend-toggle"
          >
            {t('map.legend')}
          </Button>
          {legendOpen === '1' &&
            statuses.map((s) => (
              <div key={String(s.value)}>
                <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: rgbCss(color(Number(s.value))), marginRight: 6 }} />
                {t(s.label)}{' '}
                <Tag bordered={false} style={{ marginLeft: 4 }}>
                  {counts.get(Number(s.value)) ?? 0}
                </Tag>
              </div>
            ))}
        </div>
        {stack && points && (
          <StackCard
            points={stack.map((i) => ({ index: i, id: points.id[i], kind: points.kind[i], st: points.st[i] }))}
            statusColor={color}
            onPick={(i) => {
              setStack(null);
              setPicked(i);
            }}
            onClose={() => setStack(null)}
          />
        )}
        {picked !== null && points && (
          <DetailCard
            id={points.id[picked]}
            kind={points.kind[picked]}
            statusLabel={statusLabel}
            statusColor={color}
            onClose={() => setPicked(null)}
            onHistory={canHistory ? (b) => navigate(`/map/history?${new URLSearchParams(Object.entries(b).map(([k, v]) => [k, String(v)]))}`) : undefined}
          />
        )}
      </div>
    </div>
  );
}
