/** What a provider draws: the contract between the screens and the two map providers. */
import type { Stop } from '@rti/common';
import type { MapRoute, MapWarehouse } from '../shared/map-answer';

export type { MapRoute, MapWarehouse } from '../shared/map-answer';

/** Columns of the points on the map; `kind` 1 carrier, 2 GPS tracker. */
export interface PointSet {
  id: number[];
  kind: number[];
  lng: number[];
  lat: number[];
  st: number[];
  /** bumped on every change so providers know to redraw */
  version: number;
}

export interface TrackOverlay {
  path: Array<[number, number]>;
  stops: Stop[];
  events: Array<{ lng: number; lat: number; code: string }>;
  cursor: [number, number] | null;
}

export interface ViewTarget {
  lng: number;
  lat: number;
  zoom: number;
  /** when set, fit these bounds instead: [west, south, east, north] */
  bounds?: [number, number, number, number];
  /** room (px) kept free around fitted bounds, e.g. for the legend; default 40 on every side */
  padding?: { top: number; right: number; bottom: number; left: number };
  /** bumped to re-apply the same target */
  seq: number;
}

export interface MapViewProps {
  target: ViewTarget;
  points?: PointSet;
  /** status → RGB */
  statusColor: (st: number) => [number, number, number];
  warehouses?: MapWarehouse[];
  routes?: MapRoute[];
  track?: TrackOverlay;
  onPick?: (index: number) => void;
  /** a click on the map where there is no marker: its longitude and latitude (a coordinate picker) */
  onMapClick?: (lngLat: [number, number]) => void;
  /** text beside a single marker (a vehicle's code): drawn when few enough single markers are in view, never on clusters */
  pointLabel?: (index: number) => string;
  /** called once after the first frame with data has been drawn */
  onFirstDraw?: () => void;
  /** keeps the drawing buffer so screenshots and PDF export can read the canvas */
  preserveDrawingBuffer?: boolean;
}
