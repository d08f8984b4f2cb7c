/** The inspection page's calls, loaded together and refreshed every 30 s while visible. */
import { request, useAutoRefresh } from '@rti/console/plugin-api';

export interface Disk {
  path: string;
  total: number;
  used: number;
  free: number;
  usage: number;
}
export interface GatewayKind {
  total: number;
  online: number;
  offline: number;
  ineffective: number;
  unknown: number;
  onlineRate: number;
  offlineList: Array<{ id: number; sn: string; name: string; warehouse: string | null; lastReportTime: string | null }>;
}
export interface Inspection {
  cpu: { cores: number; model: string; samples: Array<{ time: number; cpu: number; processCpu: number; load1: number }> };
  mem: { total: number; used: number; usage: number; processRss: number; heapUsed: number; samples: Array<{ time: number; used: number; processRss: number }> };
  disks: Disk[];
  occupancy: { total: number; usage?: number; parts: Array<{ name: string; value: number }> };
  database: { dialect: string; size: number; tables: number; telemetrySize: number; resources: Array<{ resource: string; label: string; rows: number }> };
  dbChart: { categories: string[]; values: number[] };
  gateways: { slave: GatewayKind; master: GatewayKind };
  battery: { bands: Array<{ band: string; from: number; to: number; count: number }>; unknown: number; total: number };
  suggestions: Array<{ type: number; level: 'warning' | 'error'; key: string; params: Record<string, string | number> }>;
  loadedAt: number;
}

const P = '/system-inspection';

export async function loadInspection(): Promise<Inspection> {
  const [cpu, mem, disks, occupancy, database, dbChart, gateways, battery, suggestions] = await Promise.all([
    request<Inspection['cpu']>(`${P}/system-disk/occupancy-echarts/cpu/list`, {}),
    request<Inspection['mem']>(`${P}/mem/list`, {}),
    request<Disk[]>(`${P}/system-disk/list`, {}),
    request<Inspection['occupancy']>(`${P}/occupancy-echarts/list`, {}),
    request<Inspection['database']>(`${P}/database/list`, {}),
    request<Inspection['dbChart']>(`${P}/database-echarts/list`, {}),
    request<Inspection['gateways']>(`${P}/gateway-inspection`, {}),
    request<Inspection['battery']>(`${P}/beacon-battery/list`, {}),
    request<Inspection['suggestions']>(`${P}/suggest/list`, {}),
  ]);
  return { cpu, mem, disks, occupancy, database, dbChart, gateways, battery, suggestions, loadedAt: Date.now() };
}

export function useInspection(refreshMs = 30_000) {
  return useAutoRefresh(loadInspection, refreshMs);
}

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}
