/**
 * Screenshot pages for report mails (standalone, no chrome): a headless browser opens one with
 * a query string, waits for `window.__screenshotReady === true` (also `data-ready="true"` on
 * the root) and takes the picture. Always provider A (deck.gl) with the drawing buffer kept.
 *
 * - tracks  (/gps/report/screen/shot/map):     every tracker's track in the range, one colour each, stops
 * - markers (/gps/report/screen/shot/marker):  every tracker's last fix in the range, labelled
 * - network (/gps/report/screen/shot/map/other):    warehouses and drawn routes (weekly inventory mail)
 * - carriers (/gps/report/screen/shot/marker/other): carriers at their positions by transport status
 *
 * Query: from, to (epoch ms or ISO; default the last 24 h), sn (comma list), gpsId (comma
 * list), title; the /other pages pass projectId, warehouseId, carrierCodeId to /map/list.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { request } from '@rti/console/plugin-api';
import { CITIES, DEFAULT_ZOOM, PROVIDER_A, rgbCss, tagRgb } from '@rti/plugin-map/console/map-settings';
import type { MapRoute, MapWarehouse, PointSet, TrackOverlay, ViewTarget } from '@rti/plugin-map/console/map-types';
import { MapView } from '@rti/plugin-map/console/map-view';
import { toPointSet, type MapListAnswer } from '@rti/plugin-map/console/point-set';
import { useEnumColors } from '@rti/plugin-map/console/use-status-colors';
import type { Stop } from '@rti/common';
import type { ScreenShotAnswer } from '../shared/vehicle-answer';
import { boundsOf } from './format';

export type ShotKind = 'tracks' | 'markers' | 'network' | 'carriers';

const PALETTE = ['#1677ff', '#f5222d', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#faad14', '#2f54eb', '#a0d911'];
const color = (i: number) => PALETTE[i % PALETTE.length];

interface Drawing {
  points: PointSet;
  routes: MapRoute[];
  warehouses: MapWarehouse[];
  track?: TrackOverlay;
  legend: Array<{ label: string; color: string }>;
  /** marker colour by `st` */
  colorOf: (st: number) => [number, number, number];
}

const empty = (): PointSet => ({ id: [], kind: [], lng: [], lat: [], st: [], version: 1 });

function queryOf(params: URLSearchParams) {
  const time = (k: string) => {
    const v = params.get(k);
    if (!v) return undefined;
    return /^\d+$/.test(v) ? Number(v) : v;
  };
  const to = time('to') ?? Date.now();
  const from = time('from') ?? (typeof to === 'number' ? to - 86_400_000 : undefined);
  return { time: [from, to], sn: params.get('sn') || undefined, gpsId: params.get('gpsId') || undefined };
}

function fromTracks(a: ScreenShotAnswer, kind: 'tracks' | 'markers'): Drawing {
  const points = empty();
  const routes: MapRoute[] = [];
  const warehouses: MapWarehouse[] = [];
  const stops: Stop[] = [];
  a.tracks.forEach((tr, k) => {
    if (tr.last) {
      points.id.push(tr.gpsId);
      points.kind.push(2);
      points.lng.push(tr.last.lng);
      points.lat.push(tr.last.lat);
      points.st.push(k);
    }
    if (kind === 'tracks') {
      // each hop a coloured segment: the providers draw routes as lines
      for (let i = 1; i < tr.lng.length; i++)
        routes.push({ id: k * 100_000 + i, name: tr.sn, color: color(k), from: [tr.lng[i - 1], tr.lat[i - 1]], to: [tr.lng[i], tr.lat[i]] });
      stops.push(...tr.stops);
    } else if (tr.last)
      warehouses.push({
        id: tr.gpsId,
        orgId: 0,
        name: tr.carrierSn ? `${tr.sn} · ${tr.carrierSn}` : tr.sn,
        lng: tr.last.lng,
        lat: tr.last.lat,
        color: color(k),
        fence: null,
      });
  });
  return {
    points,
    routes,
    warehouses,
    track: kind === 'tracks' ? { path: [], stops, events: [], cursor: null } : undefined,
    legend: a.tracks.map((tr, k) => ({ label: tr.carrierSn ? `${tr.sn} (${tr.carrierSn})` : tr.sn, color: color(k) })),
    colorOf: (st) => tagRgb(color(st)),
  };
}

export function ScreenShot({ kind }: { kind: ShotKind }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const status = useEnumColors('transportStatus');
  const [drawing, setDrawing] = useState<Drawing>();
  const [error, setError] = useState<string>();
  const [target, setTarget] = useState<ViewTarget>({ lng: CITIES[0].lng, lat: CITIES[0].lat, zoom: DEFAULT_ZOOM, seq: 0 });
  const [ready, setReady] = useState(false);
  const drawn = useRef(false);

  useEffect(() => {
    const load = async (): Promise<Drawing> => {
      if (kind === 'tracks' || kind === 'markers')
        return fromTracks(await request<ScreenShotAnswer>('/map/history/screen/shot', queryOf(params), { timeoutMs: 120_000 }), kind);
      const filters = Object.fromEntries(
        ['projectId', 'warehouseId', 'carrierCodeId'].filter((k) => params.get(k)).map((k) => [k, params.get(k)!.split(',').map(Number)]),
      );
      const a = await request<MapListAnswer>('/map/list', { ...filters, kind: kind === 'network' ? [] : [1] }, { timeoutMs: 120_000 });
      return {
        points: kind === 'network' ? empty() : toPointSet(a),
        routes: a.routes,
        warehouses: a.warehouses,
        legend:
          kind === 'network'
            ? a.routes.map((r) => ({ label: r.name, color: r.color ?? '#722ed1' }))
            : status.values.map((v) => ({ label: t(v.label), color: rgbCss(status.color(Number(v.value))) })),
        colorOf: status.color,
      };
    };
    load()
      .then((d) => {
        const lng = [...d.points.lng, ...d.warehouses.map((w) => w.lng), ...d.routes.flatMap((r) => [r.from[0], r.to[0]])];
        const lat = [...d.points.lat, ...d.warehouses.map((w) => w.lat), ...d.routes.flatMap((r) => [r.from[1], r.to[1]])];
        // a margin around everything so labels at the edges stay in the picture
        const raw = boundsOf(lng, lat);
        const pad = raw ? Math.max(0.005, (raw[2] - raw[0]) * 0.12, (raw[3] - raw[1]) * 0.12) : 0;
        const b = raw && ([raw[0] - pad, raw[1] - pad, raw[2] + pad, raw[3] + pad] as [number, number, number, number]);
        if (b) setTarget((x) => ({ ...x, zoom: DEFAULT_ZOOM, bounds: b, seq: x.seq + 1 }));
        setDrawing(d);
      })
      .catch((e: Error) => {
        setError(e.message);
        setReady(true); // the picture then shows the error rather than hanging the mail job
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, params.toString()]);

  // ready once deck.gl drew the data and the basemap canvas is there (or after 3 s without it)
  const onFirstDraw = () => {
    if (drawn.current) return;
    drawn.current = true;
    const started = performance.now();
    const wait = () => {
      if (document.querySelector('.maplibregl-canvas') || performance.now() - started > 3000) setTimeout(() => setReady(true), 400);
      else setTimeout(wait, 100);
    };
    wait();
  };
  useEffect(() => {
    (window as unknown as { __screenshotReady?: boolean }).__screenshotReady = ready;
  }, [ready]);

  const title = params.get('title');
  const legend = useMemo(() => drawing?.legend.slice(0, 20) ?? [], [drawing]);
  return (
    <div data-testid={`screen-shot:${kind}`} data-ready={ready ? 'true' : 'false'} style={{ position: 'fixed', inset: 0, background: '#fff' }}>
      {drawing && (
        <MapView
          provider={PROVIDER_A}
          target={target}
          points={drawing.points}
          statusColor={drawing.colorOf}
          routes={drawing.routes}
          warehouses={drawing.warehouses}
          track={drawing.track}
          onFirstDraw={onFirstDraw}
          preserveDrawingBuffer
        />
      )}
      {(title || legend.length > 0 || error) && (
        <div
          style={{
            position: 'absolute',
            left: 12,
            top: 12,
            zIndex: 5,
            background: 'rgba(255,255,255,.92)',
            padding: '8px 12px',
            borderRadius: 6,
            fontSize: 12,
            maxWidth: 320,
          }}
        >
          {title && <div style={{ fontSize: 16, fontWeight: 600, marginBottom: 4 }}>{title}</div>}
          {error && <div style={{ color: '#cf1322' }}>{error}</div>}
          {legend.map((l) => (
            <div key={l.label}>
              <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: l.color, marginRight: 6 }} />
              {l.label}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
