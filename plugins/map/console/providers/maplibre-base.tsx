/**
 * Provider A's basemap: react-map-gl over MapLibre, in its own chunk so deck.gl (points) and
 * MapLibre (basemap) download and parse in parallel and the points never wait for the basemap.
 * DeckGL recognises it as its base map by the `mapStyle` prop and passes it the view state.
 * MapLibre's worker URL is set explicitly (Vite cannot infer it from the package).
 */
import { Map as MapGL, type MapProps } from 'react-map-gl/maplibre';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';

maplibregl.setWorkerUrl(workerUrl);

export default function MaplibreBase(props: MapProps) {
  return (
    <MapGL
      mapLib={maplibregl}
      attributionControl={false}
      {...props}
      onLoad={(e) => {
        performance.mark('map:basemap');
        props.onLoad?.(e);
      }}
    />
  );
}
