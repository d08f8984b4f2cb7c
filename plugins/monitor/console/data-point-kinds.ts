/** The two data-point series (SPEC §3) as the console shows them. */
export interface DataPointKind {
  kind: 'beacon' | 'gps';
  /** device key of the series and its filter */
  key: 'mac' | 'sn';
  timeField: 'time' | 'ts';
  route: string;
  columns: string[];
}

export const DATA_POINT_KINDS: Record<'beacon' | 'gps', DataPointKind> = {
  beacon: {
    kind: 'beacon',
    key: 'mac',
    timeField: 'time',
    route: '/monitor/data-points-beacon',
    columns: ['time', 'mac', 'gatewayMac', 'battery', 'rssi', 'temperature', 'humidity', 'uuid', 'major', 'minor', 'txPower'],
  },
  gps: {
    kind: 'gps',
    key: 'sn',
    timeField: 'ts',
    route: '/monitor/data-points-gps',
    columns: [
      'ts',
      'sn',
      'dataType',
      'battery',
      'longitude',
      'latitude',
      'speed',
      'altitude',
      'mileage',
      'temperature1',
      'humidity1',
      'pressure1',
      'acceleration',
      'eventCode',
      'eventValue',
      'location',
    ],
  },
};

/** detail link of one point: the device and the exact time */
export const detailHref = (k: DataPointKind, row: Record<string, unknown>) =>
  `${k.route}/detail?${new URLSearchParams({ [k.key]: String(row[k.key] ?? ''), t: String(row[k.timeField] ?? '') })}`;
