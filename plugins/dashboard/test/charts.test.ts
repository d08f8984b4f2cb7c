/** Dashboard chart options and headline figures from the call answers (pure). */
import { describe, expect, it } from 'vitest';
import {
  batteryOption,
  bars,
  CATEGORY_LABEL_WIDTH,
  categoryLabels,
  donut,
  inventoryOption,
  lifeCycleOption,
  mapOption,
  trendOption,
  TOKEN_COLOURS,
} from '../console/chart-options';
import { kpis } from '../console/kpis';
import type { DashboardData } from '../console/dashboard-data';

const L = (k: string) => `«${k}»`;
const series = (o: any) => o.series as any[];

const data: DashboardData = {
  summary: {
    carriers: {
      total: 10,
      byStatus: [
        { value: 10, count: 8 },
        { value: 50, count: 2 },
      ],
      byTransportStatus: [
        { value: 10, count: 6 },
        { value: 20, count: 3 },
        { value: 40, count: 1 },
      ],
    },
    inventory: [
      { id: 1, name: 'A', count: 7, min: 2, max: 5, theory: 4, level: 'high' },
      { id: 2, name: 'B', count: 1, min: 2, max: 5, theory: 4, level: 'low' },
    ],
    alertTrend: {
      days: ['2026-01-01', '2026-01-02'],
      series: [
        { category: 'carrier', values: [1, 2] },
        { category: 'gps', values: [0, 4] },
      ],
    },
    lifeCycle: [
      { band: 'under1', count: 4 },
      { band: 'from1to3', count: 3 },
      { band: 'over3', count: 2 },
      { band: 'unknown', count: 1 },
    ],
  },
  battery: {
    bands: [
      { band: 'high', from: 75, to: 100, days: 550, count: 5 } as any,
      { band: 'middle', from: 25, to: 75, days: 180, count: 3 },
      { band: 'low', from: 0, to: 25, days: null, count: 2 },
    ],
    unknown: 1,
    total: 11,
  },
  messages: { list: [], unsolved: { carrier: 3, beacon: 2 } },
  timeouts: { total: 0, list: [] },
  map: { inTransit: 3, warehouses: [{ id: 1, name: 'A', color: null, lnglat: [121.4, 31.2], count: 7 }] },
  loadedAt: 0,
};

describe('chart options', () => {
  it('status donut and bars carry enum labels and SPEC colours', () => {
    const enumOf = (v: number | null) => (v === 10 ? { label: 'In warehouse', color: 'success' } : { label: String(v) });
    const d = series(donut(data.summary.carriers.byTransportStatus, enumOf))[0].data;
    expect(d[0]).toMatchObject({ name: 'In warehouse', value: 6, itemStyle: { color: TOKEN_COLOURS.success } });
    const b = bars(data.summary.carriers.byStatus, enumOf) as any;
    expect(b.xAxis.data).toEqual(['In warehouse', '50']);
    expect(series(b)[0].data.map((x: any) => x.value)).toEqual([8, 2]);
  });
  it('inventory: stock bars coloured by level plus min/max/theory markers', () => {
    const o = inventoryOption(data.summary.inventory, L) as any;
    expect(o.xAxis.data).toEqual(['A', 'B']);
    const [stock, min, max, theory] = series(o);
    expect(stock.data.map((x: any) => x.value)).toEqual([7, 1]);
    expect(stock.data[0].itemStyle.color).not.toBe(stock.data[1].itemStyle.color);
    expect([min.data, max.data, theory.data]).toEqual([
      [2, 2],
      [5, 5],
      [4, 4],
    ]);
  });
  it('alert trend draws one unstacked series per category over the day axis (each line its own count)', () => {
    const o = trendOption(data.summary.alertTrend, L) as any;
    expect(o.xAxis.data).toEqual(['01-01', '01-02']);
    expect(series(o).map((s) => s.stack)).toEqual([undefined, undefined]);
    expect(series(o).map((s) => [s.name, s.data])).toEqual([
      ['«dashboard.category.carrier»', [1, 2]],
      ['«dashboard.category.gps»', [0, 4]],
    ]);
  });
  it('battery and life-cycle bands keep SPEC order and labels', () => {
    expect(series(batteryOption(data.battery, L))[0].data.map((x: any) => [x.name, x.value])).toEqual([
      ['«dashboard.battery.high»', 5],
      ['«dashboard.battery.middle»', 3],
      ['«dashboard.battery.low»', 2],
    ]);
    const life = lifeCycleOption(data.summary.lifeCycle, L) as any;
    expect(life.xAxis.data).toEqual(['«dashboard.life.under1»', '«dashboard.life.from1to3»', '«dashboard.life.over3»', '«dashboard.life.unknown»']);
  });
  it('map panel places warehouses at lng/lat with their stock', () => {
    expect(series(mapOption(data.map, L))[0].data).toEqual([{ name: 'A', value: [121.4, 31.2, 7], itemStyle: undefined }]);
  });
});

describe('axis labels fit in every language (issue 10)', () => {
  it('category labels are all shown, cut with an ellipsis past a width, tilted when many or long', () => {
    const short = categoryLabels(['New', 'In use'], false, 5);
    expect(short).toMatchObject({ interval: 0, rotate: 0, width: CATEGORY_LABEL_WIDTH, overflow: 'truncate', ellipsis: '…' });
    // two Japanese labels of 10 characters are as wide as 20 Latin ones: tilted
    expect(categoryLabels(['スレーブゲートウェイ', 'マスターゲートウェイ'], false, 5).rotate).toBe(30);
    expect(categoryLabels(['a', 'b', 'c', 'd', 'e', 'f'], false, 5).rotate).toBe(30);
    const inv = inventoryOption(
      [...data.summary.inventory, { id: 3, name: 'Shanghai Jiading Depot', count: 1, min: 0, max: 2, theory: 1, level: 'ok' }],
      L,
    ) as any;
    expect(inv.xAxis.axisLabel).toMatchObject({ rotate: 30, overflow: 'truncate' });
    expect((lifeCycleOption(data.summary.lifeCycle, L) as any).xAxis.axisLabel.overflow).toBe('truncate');
  });
  it('map panel: translated axis names centred on their axis; names of eastern points on their left', () => {
    const o = mapOption(
      {
        inTransit: 0,
        warehouses: [
          { id: 1, name: 'West', color: null, lnglat: [100, 30], count: 1 },
          { id: 2, name: 'East', color: null, lnglat: [140, 35], count: 1 },
        ],
      },
      L,
    ) as any;
    expect([o.xAxis.name, o.xAxis.nameLocation, o.yAxis.name, o.yAxis.nameLocation]).toEqual(['«fields.longitude»', 'middle', '«fields.latitude»', 'middle']);
    expect(series(o)[0].data.map((d: any) => d.label?.position ?? 'right')).toEqual(['right', 'left']);
  });
});

describe('headline figures', () => {
  it('from the answers', () => {
    expect(kpis(data)).toEqual({ carriers: 10, inWarehouse: 6, inTransit: 3, abnormal: 1, unsolvedAlerts: 5, lowBattery: 2 });
  });
});
