/** Headline figures of the dashboards (pure, unit-tested). */
import type { DashboardData } from './dashboard-data';

export interface Kpis {
  carriers: number;
  inWarehouse: number;
  inTransit: number;
  abnormal: number;
  unsolvedAlerts: number;
  lowBattery: number;
}

const countOf = (rows: Array<{ value: number | null; count: number }>, v: number) => rows.find((r) => r.value === v)?.count ?? 0;

export function kpis(d: DashboardData): Kpis {
  const t = d.summary.carriers.byTransportStatus;
  return {
    carriers: d.summary.carriers.total,
    inWarehouse: countOf(t, 10),
    inTransit: countOf(t, 20),
    abnormal: countOf(t, 40),
    unsolvedAlerts: Object.values(d.messages.unsolved).reduce((a, b) => a + b, 0),
    lowBattery: d.battery.bands.find((b) => b.band === 'low')?.count ?? 0,
  };
}
