/**
 * Provider B: AntV L7 on its own tile-less map (`Map` of @antv/l7-maps), with the offline
 * Natural Earth basemap as polygon/line layers (or a configured MapLibre style through L7's
 * MapLibre adapter). The same clusters, fences, routes and tracks as provider A.
 */
import { useEffect, useRef } from 'react';
import { LineLayer, PointLayer, PolygonLayer, Scene, type ILayer } from '@antv/l7';
import { Map as L7Map } from '@antv/l7-maps';
import { rgbCss, tagRgb } from '../map-settings';
import type { MapViewProps } from '../map-types';
import { clustersAt, expansionZoom, labelsIn, type ClusterItem } from './clusters-view';
import { BORDER, LAND, WATER, loadBasemap } from './basemap';

performance.mark('map:provider');
void loadBasemap();

const hex = (c: readonly number[]) =>
  '#' +
  c
    .slice(0, 3)
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('');

export default function L7MapView(props: MapViewProps) {
  const box = useRef<HTMLDivElement>(null);
  const scene = useRef<Scene | null>(null);
  const layers = useRef<Record<string, ILayer>>({});
  const latest = useRef(props);
  latest.current = props;
  const drawn = useRef(false);
  /** points, version and zoom level the markers were last built for */
  const markersFor = useRef<{ points: unknown; key: string }>({ points: null, key: '' });

  // one scene per mount
  useEffect(() => {
    const el = box.current!;
    const s = new Scene({
      id: el,
      map: new L7Map({ center: [props.target.lng, props.target.lat], zoom: props.target.zoom, minZoom: 1, maxZoom: 19 }),
      logoVisible: false,
      preserveDrawingBuffer: props.preserveDrawingBuffer ?? false,
    } as never);
    scene.current = s;
    // test and screenshot hook: screen pixel of a position in the current view
    (window as unknown as { __mapProject?: (lng: number, lat: number) => number[] }).__mapProject = (lng, lat) => {
      const p = s.lngLatToContainer([lng, lat]);
      return [p.x, p.y];
    };
    s.setBgColor(WATER);
    s.on('loaded', () => {
      // the fitted view before the first clusters (not the city zoom's thousands of markers);
      // points first, the basemap joins when its chunk is in (it was requested with this one)
      applyTarget();
      draw();
      void loadBasemap().then((b) => {
        if (scene.current !== s) return;
        s.addLayer(new PolygonLayer({ zIndex: 0 }).source(b.land).color(LAND).shape('fill'));
        s.addLayer(new LineLayer({ zIndex: 1 }).source(b.borders).color(BORDER).size(0.8).shape('line'));
        performance.mark('map:basemap');
      });
    });
    const redraw = () => drawMarkers();
    s.on('zoomend', redraw);
    s.on('moveend', drawLabels);
    return () => {
      s.off('zoomend', redraw);
      s.off('moveend', drawLabels);
      s.destroy();
      scene.current = null;
      layers.current = {};
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function put(id: string, layer: ILayer | null) {
    const s = scene.current;
    if (!s) return;
    const old = layers.current[id];
    // L7 takes the layer off asynchronously and nothing here waits for it; one already gone is no error
    if (old) s.removeLayer(old).catch(() => undefined);
    delete layers.current[id];
    if (layer) {
      s.addLayer(layer);
      layers.current[id] = layer;
    }
  }

  /** the clusters the markers were last drawn from (labels follow the view over them) */
  const items = useRef<ClusterItem[]>([]);

  function drawLabels() {
    const s = scene.current;
    const { pointLabel } = latest.current;
    if (!s || !pointLabel || !drawn.current) return;
    const [[w, south], [e, n]] = s.getBounds();
    const labels = labelsIn(items.current, [w, south, e, n], pointLabel);
    box.current?.setAttribute('data-labels', String(labels.length));
    // textOffset as for the warehouse names: 40 is just above the marker
    put(
      'labels',
      labels.length
        ? new PointLayer({ zIndex: 12 })
            .source(labels, { parser: { type: 'json', x: 'lng', y: 'lat' } })
            .shape('text', 'text')
            .size(12)
            .color('#1f2937')
            .style({ textOffset: [0, 40], stroke: '#ffffff', strokeWidth: 3 })
        : null,
    );
  }

  function drawMarkers() {
    const s = scene.current;
    const { points, statusColor, onPick, onFirstDraw } = latest.current;
    if (!s || !points) return;
    // a zoomend inside the same level (or the fit on load) must not replace layers still initialising
    const key = `${points.version}/${Math.floor(s.getZoom())}`;
    if (markersFor.current.points === points && markersFor.current.key === key) return;
    markersFor.current = { points, key };
    const clusters = clustersAt(points, s.getZoom());
    items.current = clusters;
    if (!drawn.current) performance.mark('map:clusters');
    box.current?.setAttribute('data-markers', String(clusters.length));
    const data = clusters.map((c) => ({
      ...c,
      color: hex(statusColor(c.st)),
      r: c.count === 1 ? 7 : Math.min(34, 12 + Math.sqrt(c.count) * 1.6),
      label: c.count === 1 ? '' : c.count >= 10000 ? `${Math.round(c.count / 1000)}k` : String(c.count),
    }));
    const layer = new PointLayer({ zIndex: 10 })
      .source(data, { parser: { type: 'json', x: 'lng', y: 'lat' } })
      .shape('circle')
      .size('r', (r: number) => r)
      .color('color', (c: string) => c)
      .style({ stroke: '#ffffff', strokeWidth: 2, opacity: 0.95 });
    layer.on('click', (e: { feature: ClusterItem }) => {
      const c = e.feature;
      // a single point, or several at one position (the first one's card)
      if (c.clusterId < 0) onPick?.(c.index);
      else s.setZoomAndCenter(expansionZoom(points, c.clusterId), [c.lng, c.lat]);
    });
    put('markers', layer);
    put(
      'counts',
      new PointLayer({ zIndex: 11 })
        .source(
          data.filter((d) => d.label),
          { parser: { type: 'json', x: 'lng', y: 'lat' } },
        )
        .shape('label', 'text')
        .size(12)
        .color('#ffffff')
        .style({ fontWeight: 700, textAnchor: 'center' }),
    );
    if (!drawn.current) {
      drawn.current = true;
      s.render();
      // L7 draws on its next animation frame; the frame after that has the markers on screen
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          onFirstDraw?.();
          // fences, routes, warehouse names and labels after the first frame
          drawOverlays();
          drawLabels();
        }),
      );
    } else drawLabels();
  }

  function draw() {
    const s = scene.current;
    if (!s || !s.loaded) return;
    if (drawn.current || latest.current.track) drawOverlays();
    drawMarkers();
  }

  function drawOverlays() {
    const { warehouses = [], routes = [], track } = latest.current;
    put(
      'fences',
      warehouses.some((w) => w.fence)
        ? new PointLayer({ zIndex: 2 })
            .source(
              warehouses.filter((w) => w.fence),
              { parser: { type: 'json', x: 'lng', y: 'lat' } },
            )
            .shape('circle')
            .size('fence', (m: number) => m)
            .color('color', (c: string | null) => c ?? '#1677ff')
            .style({ unit: 'meter', opacity: 0.15, stroke: '#1677ff', strokeWidth: 1 } as never)
        : null,
    );
    put(
      'routes',
      routes.length
        ? new LineLayer({ zIndex: 3 })
            .source(
              routes.map((r) => ({ ...r, x: r.from[0], y: r.from[1], x1: r.to[0], y1: r.to[1] })),
              { parser: { type: 'json', x: 'x', y: 'y', x1: 'x1', y1: 'y1' } },
            )
            .shape('line')
            .size(3)
            .color('color', (c: string | null) => c ?? '#722ed1')
        : null,
    );
    put(
      'warehouses',
      warehouses.length
        ? new PointLayer({ zIndex: 4 })
            .source(warehouses, { parser: { type: 'json', x: 'lng', y: 'lat' } })
            .shape('circle')
            .size(9)
            .color('#ffffff')
            .style({ stroke: '#1f3a5f', strokeWidth: 3 })
        : null,
    );
    // L7 measures textOffset from the text's baseline, upwards, in its own units (≈ half a pixel
    // at this size): 70 puts the name above the largest cluster bubble, as provider A's -38 px
    put(
      'warehouse-names',
      warehouses.length
        ? new PointLayer({ zIndex: 5 })
            .source(warehouses, { parser: { type: 'json', x: 'lng', y: 'lat' } })
            .shape('name', 'text')
            .size(12)
            .color('#1f3a5f')
            .style({ textOffset: [0, 70], stroke: '#ffffff', strokeWidth: 2 })
        : null,
    );
    if (track) {
      put(
        'track',
        track.path.length > 1
          ? new LineLayer({ zIndex: 6 })
              .source({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: track.path } }] })
              .shape('line')
              .size(4)
              .color(rgbCss([22, 119, 255]))
          : null,
      );
      put(
        'stops',
        track.stops.length
          ? new PointLayer({ zIndex: 7 })
              .source(track.stops, { parser: { type: 'json', x: 'lng', y: 'lat' } })
              .shape('circle')
              .size(7)
              .color('#faad14')
              .style({ stroke: '#fff', strokeWidth: 2 })
          : null,
      );
      put(
        'cursor',
        track.cursor
          ? new PointLayer({ zIndex: 8 })
              .source([{ x: track.cursor[0], y: track.cursor[1] }], { parser: { type: 'json', x: 'x', y: 'y' } })
              .shape('circle')
              .size(9)
              .color('#1677ff')
              .style({ stroke: '#fff', strokeWidth: 3 })
          : null,
      );
    }
  }

  // data changes
  useEffect(() => {
    draw();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.points, props.points?.version, props.warehouses, props.routes, props.track]);

  function applyTarget() {
    const s = scene.current;
    if (!s) return;
    const t = latest.current.target;
    if (t.bounds && !(t.bounds[0] === t.bounds[2] && t.bounds[1] === t.bounds[3]))
      s.fitBounds(
        [
          [t.bounds[0], t.bounds[1]],
          [t.bounds[2], t.bounds[3]],
        ] as never,
        { padding: t.padding ?? 40, maxZoom: t.zoom, animate: false } as never,
      );
    else s.setZoomAndCenter(t.zoom, t.bounds ? [t.bounds[0], t.bounds[1]] : [t.lng, t.lat]);
  }

  // new target
  useEffect(() => {
    applyTarget();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.target.seq]);

  return <div ref={box} style={{ position: 'absolute', inset: 0 }} data-testid="map-canvas" data-provider="b" />;
}

export { tagRgb };
