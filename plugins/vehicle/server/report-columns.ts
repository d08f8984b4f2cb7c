/**
 * Column headers and sheet names of the GPS report export, in the caller's language: the texts
 * are the plugin's own (server/messages/<lang>.json, under "vehicle."), read through the server's translator.
 */
import type { Language, PluginServerContext } from '@rti/server/plugin-api';

export type ReportColumn = 'sn' | 'name' | 'carrier' | 'day' | 'days' | 'distanceKm' | 'mileageKm' | 'running' | 'stopping' | 'silent' | 'maxSpeed' | 'alarms' | 'tempMin' | 'tempMax' | 'points';

export function headers(t: PluginServerContext['t'], lang: Language, cols: readonly ReportColumn[]): string[] {
  return cols.map((c) => t(lang, `vehicle.report.columns.${c}`));
}

export function sheetName(t: PluginServerContext['t'], lang: Language, sheet: 'perDay' | 'perDevice'): string {
  return t(lang, `vehicle.report.sheets.${sheet}`);
}
