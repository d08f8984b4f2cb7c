/**
 * Provider A: MapLibre (react-map-gl) with deck.gl layers on top. Markers, clusters, fences,
 * routes and tracks are deck.gl layers; the basemap (configured style or the offline one) is
 * MapLibre in its own chunk, loaded in parallel. The first frame holds only what an operator
 * looks for (markers and counts, or the track); fences, routes and warehouse names follow on
 * the next frame so their shaders and font atlas do not delay it.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import DeckGL from '@deck.gl/react';
import { FlyToInterpolator, WebMercatorViewport, type MapViewState, type PickingInfo } from '@deck.gl/core';
import { LineLayer, PathLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import { tagRgb } from '../map-settings';
import type { MapViewProps } from '../map-types';
import { clustersAt, expansionZoom, labelsIn, type ClusterItem, type PointLabel } from './clusters-view';
import { loadBasemap, offlineStyle } from './basemap';
import { styleUrl } from '../map-settings';

performance.mark('map:provider');
export const loadMaplibreBase = () => import('./maplibre-base');
// MapLibre is requested when the map mounts (not when this chunk is prefetched at boot): its
// 1.1 MB would otherwise be parsed while the shell is still starting
const MaplibreBase = lazy(loadMaplibreBase);
if (!styleUrl()) void loadBasemap();

/** DeckGL hands its view state to a child with a `mapStyle` prop: this one, which waits for MapLibre on its own */
function BaseMap(props: Parameters<typeof MaplibreBase>[0]) {
  return (
    <Suspense fallback={null}>
      <MaplibreBase {...props} />
    </Suspense>
  );
}

export default function DeckMap(props: MapViewProps) {
  const { target, points, statusColor, warehouses = [], routes = [], track, onPick, onMapClick, onFirstDraw, pointLabel } = props;
  const [view, setView] = useState<MapViewState>({ longitude: target.lng, latitude: target.lat, zoom: target.zoom });
  const [size, setSize] = useState({ width: 800, height: 600 });
  // a target is applied once the container has its real size (fitBounds needs it)
  const [sized, setSized] = useState(false);
  const [style, setStyle] = useState<object | string | undefined>(styleUrl());
  const drawn = useRef(false);
  // non-critical layers join once the first frame is on screen
  const [settled, setSettled] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!style) void loadBasemap().then((b) => setStyle(offlineStyle(b)));
  }, [style]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      setSize({ width: el.clientWidth || 800, height: el.clientHeight || 600 });
      setSized(true);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // markers wait for the first target to be applied: clustering at the initial city zoom would
  // build tens of thousands of single markers for one throw-away frame
  const [placed, setPlaced] = useState(false);
  // apply a new target (city, fit all, focus on a point)
  useEffect(() => {
    if (!sized) return;
    setPlaced(true);
    if (target.bounds) {
      const [w, s, e, n] = target.bounds;
      if (w === e && s === n) return setView({ longitude: w, latitude: s, zoom: target.zoom });
      const vp = new WebMercatorViewport({ width: size.width, height: size.height });
      const fit = vp.fitBounds(
        [
          [w, s],
          [e, n],
        ],
        { padding: target.padding ?? 40 },
      );
      setView({ longitude: fit.longitude, latitude: fit.latitude, zoom: Math.min(fit.zoom, target.zoom) });
    } else setView({ longitude: target.lng, latitude: target.lat, zoom: target.zoom, transitionDuration: 0 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target.seq, sized]);

  // test and screenshot hook: screen pixel of a position in the current view
  useEffect(() => {
    (window as unknown as { __mapProject?: (lng: number, lat: number) => number[] }).__mapProject = (lng, lat) =>
      new WebMercatorViewport({ ...view, ...size }).project([lng, lat]);
  }, [view, size]);

  const zoomLevel = Math.floor(view.zoom);
  const clusters = useMemo(() => {
    if (!points || !placed) return [];
    const c = clustersAt(points, zoomLevel);
    if (!drawn.current) performance.mark('map:clusters');
    return c;
    // the point store is updated in place: its version is what says it changed
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, points?.version, zoomLevel, placed]);

  const labels = useMemo(() => {
    if (!pointLabel || !settled || clusters.length === 0) return [];
    return labelsIn(clusters, new WebMercatorViewport({ ...view, ...size }).getBounds(), pointLabel);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clusters, pointLabel, settled, view.longitude, view.latitude, view.zoom, size]);

  const layers = [
    settled &&
      new ScatterplotLayer<(typeof warehouses)[number]>({
        id: 'fences',
        data: warehouses.filter((w) => w.fence),
        getPosition: (w) => [w.lng, w.lat],
        getRadius: (w) => w.fence ?? 0,
        radiusUnits: 'meters',
        stroked: true,
        getFillColor: (w) => [...tagRgb(w.color ?? '#1677ff'), 28],
        getLineColor: (w) => [...tagRgb(w.color ?? '#1677ff'), 200],
        lineWidthUnits: 'pixels',
        getLineWidth: 1.5,
      }),
    settled &&
      routes.length > 0 &&
      new LineLayer<(typeof routes)[number]>({
        id: 'routes',
        data: routes,
        getSourcePosition: (r) => r.from,
        getTargetPosition: (r) => r.to,
        getColor: (r) => [...tagRgb(r.color ?? '#722ed1'), 220],
        getWidth: 3,
      }),
    settled &&
      new ScatterplotLayer<(typeof warehouses)[number]>({
        id: 'warehouses',
        data: warehouses,
        getPosition: (w) => [w.lng, w.lat],
        getRadius: 9,
        radiusUnits: 'pixels',
        stroked: true,
        getFillColor: [255, 255, 255, 255],
        getLineColor: (w) => [...tagRgb(w.color ?? '#1f3a5f'), 255],
        lineWidthUnits: 'pixels',
        getLineWidth: 3,
      }),
    // names of neighbouring warehouses overlap when zoomed out; the font atlas is built only when shown
    settled &&
      view.zoom >= 9 &&
      new TextLayer<(typeof warehouses)[number]>({
        id: 'warehouse-names',
        data: warehouses,
        getPosition: (w) => [w.lng, w.lat],
        getText: (w) => w.name,
        getSize: 12,
        // above the largest cluster bubble drawn on the warehouse itself
        getPixelOffset: [0, -38],
        getColor: [31, 58, 95, 255],
        characterSet: 'auto',
      }),
    track &&
      new PathLayer({
        id: 'track',
        data: [{ path: track.path }],
        getPath: (d: { path: Array<[number, number]> }) => d.path,
        getColor: [22, 119, 255, 220],
        getWidth: 4,
        widthUnits: 'pixels',
        jointRounded: true,
        capRounded: true,
      }),
    track &&
      new ScatterplotLayer({
        id: 'stops',
        data: track.stops,
        getPosition: (s: { lng: number; lat: number }) => [s.lng, s.lat],
        getRadius: 7,
        radiusUnits: 'pixels',
        getFillColor: [250, 173, 20, 255],
        stroked: true,
        getLineColor: [255, 255, 255, 255],
        lineWidthUnits: 'pixels',
        getLineWidth: 2,
      }),
    track &&
      new ScatterplotLayer({
        id: 'events',
        data: track.events.filter((e) => Number.isFinite(e.lng)),
        getPosition: (e: { lng: number; lat: number }) => [e.lng, e.lat],
        getRadius: 6,
        radiusUnits: 'pixels',
        getFillColor: [255, 77, 79, 255],
      }),
    track?.cursor &&
      new ScatterplotLayer({
        id: 'cursor',
        data: [track.cursor],
        getPosition: (c: [number, number]) => c,
        getRadius: 9,
        radiusUnits: 'pixels',
        getFillColor: [22, 119, 255, 255],
        stroked: true,
        getLineColor: [255, 255, 255, 255],
        lineWidthUnits: 'pixels',
        getLineWidth: 3,
      }),
    points &&
      new ScatterplotLayer<ClusterItem>({
        id: 'markers',
        data: clusters,
        pickable: true,
        getPosition: (c) => [c.lng, c.lat],
        getRadius: (c) => (c.count === 1 ? 7 : Math.min(34, 12 + Math.sqrt(c.count) * 1.6)),
        radiusUnits: 'pixels',
        getFillColor: (c) => [...statusColor(c.st), c.count === 1 ? 255 : 210],
        stroked: true,
        getLineColor: [255, 255, 255, 255],
        lineWidthUnits: 'pixels',
        getLineWidth: 2,
        updateTriggers: { getFillColor: [points.version], getRadius: [points.version] },
      }),
    points &&
      new TextLayer<ClusterItem>({
        id: 'cluster-counts',
        data: clusters.filter((c) => c.count > 1),
        getPosition: (c) => [c.lng, c.lat],
        getText: (c) => (c.count >= 10000 ? `${Math.round(c.count / 1000)}k` : String(c.count)),
        getSize: 12,
        getColor: [255, 255, 255, 255],
        fontWeight: 700,
        characterSet: '0123456789k',
      }),
    labels.length > 0 &&
      new TextLayer<PointLabel>({
        id: 'point-labels',
        data: labels,
        getPosition: (l) => [l.lng, l.lat],
        getText: (l) => l.text,
        getSize: 12,
        getPixelOffset: [0, -18],
        getColor: [31, 41, 55, 255],
        background: true,
        getBackgroundColor: [255, 255, 255, 230],
        backgroundPadding: [4, 2],
        characterSet: 'auto',
      }),
  ].filter(Boolean);

  const click = (info: PickingInfo) => {
    const c = info.object as ClusterItem | undefined;
    if (!c && info.coordinate && onMapClick) onMapClick([info.coordinate[0], info.coordinate[1]]);
    if (!c || !points) return;
    // a single point, or several at one position (the first one's card)
    if (c.clusterId < 0) onPick?.(c.index);
    else
      setView({
        longitude: c.lng,
        latitude: c.lat,
        zoom: expansionZoom(points, c.clusterId),
        transitionDuration: 300,
        transitionInterpolator: new FlyToInterpolator(),
      });
  };

  return (
    <div
      ref={box}
      style={{ position: 'absolute', inset: 0 }}
      data-testid="map-canvas"
      data-provider="a"
      data-markers={clusters.length}
      data-labels={labels.length}
    >
      <DeckGL
        viewState={view}
        controller
        onViewStateChange={({ viewState }) => setView(viewState as MapViewState)}
        layers={layers}
        onClick={click}
        getCursor={({ isHovering }) => (isHovering ? 'pointer' : 'grab')}
        deviceProps={{ type: 'webgl', webgl: { preserveDrawingBuffer: props.preserveDrawingBuffer ?? false } } as never}
        onAfterRender={() => {
          if (!drawn.current && (track || (points && (points.id.length === 0 || clusters.length > 0)))) {
            drawn.current = true;
            onFirstDraw?.();
            setSettled(true);
          }
        }}
      >
        {style && <BaseMap mapStyle={style as never} canvasContextAttributes={{ preserveDrawingBuffer: props.preserveDrawingBuffer ?? false }} />}
      </DeckGL>
    </div>
  );
}
