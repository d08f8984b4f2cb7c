/**
 * Time series the telemetry store keeps. The store engines are generic over these schemas:
 * SQLite derives a table, InfluxDB a measurement (key and org become tags, the rest fields).
 */

export type ColumnType = 'int' | 'float' | 'string';

export interface SeriesSchema {
  name: string;
  /** the device identifier column (beacon mac, gps sn, gateway mac) */
  key: string;
  /** value columns besides org, key and time */
  columns: ReadonlyArray<{ name: string; type: ColumnType }>;
  /** extra tags for InfluxDB (low-cardinality identifiers besides key and org) */
  tags?: readonly string[];
  /** a column every row carries: InfluxDB counts points by counting this field */
  countField: string;
}

/** A stored row: org id, device key, epoch-ms time and the schema's columns (missing = null). */
export type SeriesRow = Record<string, unknown> & { org: number; time: number };

export const beaconSeries: SeriesSchema = {
  name: 'beacon',
  key: 'mac',
  countField: 'rssi',
  tags: ['gatewayMac'],
  columns: [
    { name: 'gatewayMac', type: 'string' },
    { name: 'rssi', type: 'int' },
    { name: 'battery', type: 'float' },
    { name: 'temperature', type: 'float' },
    { name: 'humidity', type: 'float' },
    { name: 'uuid', type: 'string' },
    { name: 'major', type: 'int' },
    { name: 'minor', type: 'int' },
    { name: 'txPower', type: 'int' },
  ],
};

/** SPEC §3 GPS data point (ts is `time` here; the data-points calls map it back). */
export const gpsSeries: SeriesSchema = {
  name: 'gps',
  key: 'sn',
  countField: 'dataType',
  columns: [
    { name: 'dataType', type: 'int' },
    { name: 'battery', type: 'float' },
    { name: 'longitude', type: 'float' },
    { name: 'latitude', type: 'float' },
    { name: 'altitude', type: 'float' },
    { name: 'speed', type: 'float' },
    { name: 'acceleration', type: 'float' },
    { name: 'mileage', type: 'float' },
    { name: 'temperature1', type: 'float' },
    { name: 'temperature2', type: 'float' },
    { name: 'temperature3', type: 'float' },
    { name: 'humidity1', type: 'float' },
    { name: 'humidity2', type: 'float' },
    { name: 'humidity3', type: 'float' },
    { name: 'pressure1', type: 'float' },
    { name: 'pressure2', type: 'float' },
    { name: 'pressure3', type: 'float' },
    { name: 'runningTime', type: 'int' },
    { name: 'stoppingTime', type: 'int' },
    { name: 'eventCode', type: 'string' },
    { name: 'eventValue', type: 'string' },
    { name: 'locationType', type: 'int' },
    { name: 'location', type: 'string' },
  ],
};

/** Gateway heartbeats and connection changes (the device log of a gateway). */
export const gatewaySeries: SeriesSchema = {
  name: 'gateway',
  key: 'mac',
  countField: 'connection',
  columns: [
    { name: 'connection', type: 'int' },
    { name: 'uptime', type: 'int' },
    { name: 'firmware', type: 'string' },
    { name: 'ip', type: 'string' },
    { name: 'scanned', type: 'int' },
    { name: 'temperature', type: 'float' },
  ],
};

export const allSeries: readonly SeriesSchema[] = [beaconSeries, gpsSeries, gatewaySeries];

export function seriesByName(name: string): SeriesSchema | undefined {
  return allSeries.find((s) => s.name === name);
}
