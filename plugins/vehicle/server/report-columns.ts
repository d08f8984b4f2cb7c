/**
 * Column headers of the GPS report export in the caller's language (the server translator
 * reads metadata and server locales only, so the plugin keeps its few headers here).
 */
import type { Language } from '@rti/server/plugin-api';

const COLUMNS = ['sn', 'name', 'carrier', 'day', 'days', 'distanceKm', 'mileageKm', 'running', 'stopping', 'silent', 'maxSpeed', 'alarms', 'tempMin', 'tempMax', 'points'] as const;
export type ReportColumn = (typeof COLUMNS)[number];

const HEADERS: Record<Language, Record<ReportColumn, string>> = {
  'en-US': { sn: 'GPS SN', name: 'Name', carrier: 'Carrier', day: 'Day', days: 'Days', distanceKm: 'Distance (km)', mileageKm: 'Odometer (km)', running: 'Running (h)', stopping: 'Stopping (h)', silent: 'No signal (h)', maxSpeed: 'Max speed (km/h)', alarms: 'Alarms', tempMin: 'Min temp (°C)', tempMax: 'Max temp (°C)', points: 'Points' },
  'zh-CN': { sn: 'GPS 编号', name: '名称', carrier: '载具', day: '日期', days: '天数', distanceKm: '里程（km）', mileageKm: '里程表（km）', running: '行驶（小时）', stopping: '停车（小时）', silent: '无信号（小时）', maxSpeed: '最高速度（km/h）', alarms: '报警', tempMin: '最低温度（°C）', tempMax: '最高温度（°C）', points: '点数' },
  'ja-JP': { sn: 'GPS シリアル', name: '名称', carrier: 'キャリア', day: '日付', days: '日数', distanceKm: '走行距離（km）', mileageKm: 'オドメーター（km）', running: '走行（時間）', stopping: '停車（時間）', silent: '信号なし（時間）', maxSpeed: '最高速度（km/h）', alarms: 'アラーム', tempMin: '最低温度（°C）', tempMax: '最高温度（°C）', points: 'ポイント数' },
};

export function headers(lang: Language, cols: readonly ReportColumn[]): string[] {
  const h = HEADERS[lang] ?? HEADERS['en-US'];
  return cols.map((c) => h[c]);
}

export const SHEET = { 'en-US': ['Per day', 'Per device'], 'zh-CN': ['按日', '按设备'], 'ja-JP': ['日別', 'デバイス別'] } as Record<Language, [string, string]>;
