/** Wire contracts of the vehicle calls, shared by the server and the console. */
import type { Stop } from '@rti/common';
import type { DayReport } from './report';
import type { Trip } from './trips';
import type { Motion } from './vehicle-status';

export interface VehicleRow {
  /** the vehicle's carrier id */
  id: number;
  sn: string;
  name: string | null;
  carrierCode: string | null;
  projectId: number | null;
  gpsId: number | null;
  gpsSn: string | null;
  lng: number | null;
  lat: number | null;
  /** km/h of the newest stored point */
  speed: number | null;
  /** odometer of the newest stored point (km) */
  mileage: number | null;
  motion: Motion;
  /** tracker status (deviceStatus enum) */
  status: number | null;
  battery: number | null;
  lastSeen: string | null;
  transportStatus: number;
  warehouseId: number | null;
  warehouse: string | null;
  /** current trip: the warehouse it left and when */
  departedFrom: string | null;
  departedAt: string | null;
}

export interface VehicleListAnswer {
  list: VehicleRow[];
  total: number;
  counts: Record<Motion, number>;
}

export interface VehiclePositionsAnswer {
  time: string;
  /** columns; motion 1 moving, 2 stopped, 3 offline */
  vehicles: {
    id: number[];
    sn: string[];
    gpsId: (number | null)[];
    lng: number[];
    lat: number[];
    motion: number[];
    speed: (number | null)[];
    lastSeen: (string | null)[];
  };
  unplaced: number;
  counts: Record<Motion, number>;
}

export interface VehicleHistoryAnswer {
  subject: { carrierId: number | null; carrierSn: string | null; gpsSn: string | null; beaconMac: string | null };
  from: string;
  to: string;
  track: { t: number[]; lng: number[]; lat: number[]; speed: (number | null)[]; src: number[] };
  events: Array<{ t: number; code: string; value: string | null; lng: number | null; lat: number | null }>;
  stops: Stop[];
  total: number;
  trips: Trip[];
  /** sums over the range (full resolution track) */
  summary: Omit<DayReport, 'day'> & { days: number };
}

export interface LocatedCarrier {
  id: number;
  sn: string;
  name: string | null;
  carrierCode: string | null;
  transportStatus: number;
  /** where the position comes from: its own GPS, the vehicle it is bound to, the gateway that heard its beacon, or its warehouse */
  source: 'gps' | 'vehicle' | 'gateway' | 'warehouse' | null;
  lng: number | null;
  lat: number | null;
  warehouse: { id: number; name: string } | null;
  gateway: { sn: string; name: string | null; mac: string; purpose: number | null; kind: 'slave' | 'master' } | null;
  vehicle: { id: number; sn: string } | null;
  beacon: { sn: string; mac: string | null; battery: number | null } | null;
  gps: { sn: string; battery: number | null } | null;
  lastSeen: string | null;
  /** newest in/out records (only when one carrier is asked for) */
  recent?: Array<{ direction: number; warehouse: string | null; time: string | null; shipOrderNo: string | null }>;
}

export interface GpsReportRow {
  gpsId: number;
  sn: string;
  name: string | null;
  carrierSn: string | null;
  days: DayReport[];
  total: Omit<DayReport, 'day'> & { days: number };
}

export interface ScreenShotTrack {
  gpsId: number;
  sn: string;
  carrierSn: string | null;
  lng: number[];
  lat: number[];
  stops: Stop[];
  /** last fix of the range */
  last: { t: number; lng: number; lat: number; speed: number | null } | null;
}

export interface ScreenShotAnswer {
  from: string;
  to: string;
  tracks: ScreenShotTrack[];
}
