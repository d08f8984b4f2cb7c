/** The /map/list wire contract, shared by the server call and the console screens. */

export interface MapWarehouse {
  id: number;
  orgId: number;
  name: string;
  lng: number;
  lat: number;
  color: string | null;
  /** fence radius in metres, only when fenceVisibleInMap */
  fence: number | null;
}

export interface MapRoute {
  id: number;
  name: string;
  color: string | null;
  from: [number, number];
  to: [number, number];
}

/** Point columns; `id` is delta-encoded (first value absolute, then differences). */
export interface Columns {
  id: number[];
  lng: number[];
  lat: number[];
  st: number[];
}

export interface MapListAnswer {
  time: string;
  carriers: Columns;
  gps: Columns;
  /** rows matching the filters but with no known position */
  unplaced: number;
  warehouses: MapWarehouse[];
  routes: MapRoute[];
}
