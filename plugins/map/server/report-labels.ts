/**
 * Words of the history exports (PDF report, sensor workbooks) in the caller's language: the
 * map plugin's own texts (server/messages/<lang>.json, under "map.report."), read through the
 * server's translator once per document.
 */
import type { Language, PluginServerContext } from '@rti/server/plugin-api';

const KEYS = [
  'title',
  'generated',
  'summary',
  'carrier',
  'carrierName',
  'carrierCode',
  'gps',
  'beacon',
  'from',
  'to',
  'points',
  'distance',
  'duration',
  'maxSpeed',
  'stops',
  'events',
  'map',
  'start',
  'end',
  'stop',
  'event',
  'time',
  'code',
  'value',
  'position',
  'durationCol',
  'sensors',
  'temperature',
  'humidity',
  'shock',
  'pressure',
  'noData',
  'min',
  'max',
  'avg',
  'more',
  'source',
  'longitude',
  'latitude',
  'speed',
] as const;

export type ReportLabels = Record<(typeof KEYS)[number], string>;

export function reportLabels(t: PluginServerContext['t'], language: Language): ReportLabels {
  return Object.fromEntries(KEYS.map((k) => [k, t(language, `map.report.${k}`)])) as ReportLabels;
}
