/** The dashboard's five calls, loaded together and refreshed on an interval while the tab is visible. */
import { request, useAutoRefresh } from '@rti/console/plugin-api';

export interface Counted {
  value: number | null;
  count: number;
}
export interface Summary {
  carriers: { total: number; byStatus: Counted[]; byTransportStatus: Counted[] };
  inventory: Array<{ id: number; name: string; count: number; min: number | null; max: number | null; theory: number | null; level: 'low' | 'high' | 'ok' }>;
  alertTrend: { days: string[]; series: Array<{ category: string; values: number[] }> };
  lifeCycle: Array<{ band: string; count: number }>;
}
export interface Battery {
  bands: Array<{ band: string; from: number; to: number; days: number | null; count: number }>;
  unknown: number;
  total: number;
}
export interface Messages {
  list: Array<{
    category: string;
    id: number;
    sn: string;
    reason: string | number | null;
    message: string | null;
    warehouse: string | null;
    time: string;
    status: number;
  }>;
  unsolved: Record<string, number>;
}
export interface Timeouts {
  total: number;
  list: Array<{ id: number; carrierSn: string; warehouse: string | null; message: string | null; createdTime: string; hours: number }>;
}
export interface MapPanel {
  inTransit: number;
  warehouses: Array<{ id: number; name: string; color: string | null; lnglat: [number, number]; count: number }>;
}
export interface DashboardData {
  summary: Summary;
  battery: Battery;
  messages: Messages;
  timeouts: Timeouts;
  map: MapPanel;
  loadedAt: number;
}

export async function loadDashboard(): Promise<DashboardData> {
  const [summary, battery, messages, timeouts, map] = await Promise.all([
    request<Summary>('/dashboard', {}),
    request<Battery>('/dashboard/beacon-battery', {}),
    request<Messages>('/dashboard/message', { limit: 20 }),
    request<Timeouts>('/dashboard/transport-timeout', { limit: 20 }),
    request<MapPanel>('/dashboard/map', {}),
  ]);
  return { summary, battery, messages, timeouts, map, loadedAt: Date.now() };
}

/**
 * The five calls started when the console opens on a dashboard (page preload hook, from the
 * plugin entry), before the page chunk and its charts have loaded; the page's first load takes
 * them once if they are recent.
 */
let early: { at: number; data: Promise<DashboardData> } | undefined;
export function loadDashboardEarly(): void {
  if (early && Date.now() - early.at < 10_000) return;
  const data = loadDashboard();
  data.catch(() => undefined); // the page reports a failure when it takes the answer
  early = { at: Date.now(), data };
}
function takeOrLoad(): Promise<DashboardData> {
  const e = early;
  early = undefined;
  return e && Date.now() - e.at < 10_000 ? e.data : loadDashboard();
}

export function useDashboard(refreshMs: number) {
  return useAutoRefresh(takeOrLoad, refreshMs);
}
