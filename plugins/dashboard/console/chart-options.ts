/**
 * ECharts options for the dashboard panels, as pure functions of the answers (unit-tested).
 * `L` turns an enum value or band into its label; colours follow the SPEC display colours.
 */
import type { EChartsCoreOption } from 'echarts/core';
import type { Battery, Counted, MapPanel, Summary } from './dashboard-data';

export type Label = (key: string) => string;

/** antd status colour names of enums.json → hex (SPEC §4 display colours) */
export const TOKEN_COLOURS: Record<string, string> = {
  default: '#8c8c8c',
  success: '#52c41a',
  processing: '#1677ff',
  warning: '#faad14',
  error: '#ff4d4f',
  volcano: '#fa541c',
  magenta: '#eb2f96',
};
export const CATEGORY_COLOURS: Record<string, string> = {
  carrier: '#ff4d4f',
  beacon: '#faad14',
  gps: '#1677ff',
  slaveGateway: '#13c2c2',
  masterGateway: '#722ed1',
};
export const BATTERY_COLOURS: Record<string, string> = { high: '#52c41a', middle: '#faad14', low: '#ff4d4f' };

export interface EnumLabel {
  label: string;
  color?: string;
}

const text = (dark: boolean) => (dark ? '#d6e4ff' : '#595959');

/** widest a category label is drawn; longer ones end in an ellipsis (the axis tooltip names them in full) */
export const CATEGORY_LABEL_WIDTH = 100;

/**
 * Labels under a category axis that fit in every language: all shown, tilted when there are
 * many or one is long (Japanese and Chinese labels cannot break between words), cut with an
 * ellipsis past CATEGORY_LABEL_WIDTH, never drawn over a neighbour or out of the chart.
 */
export function categoryLabels(labels: string[], dark: boolean, crowdedAt: number) {
  // a CJK character is about twice as wide as a Latin one
  const widest = Math.max(0, ...labels.map((l) => [...l].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0)));
  return {
    color: text(dark),
    interval: 0,
    rotate: labels.length > crowdedAt || widest > 10 ? 30 : 0,
    width: CATEGORY_LABEL_WIDTH,
    overflow: 'truncate',
    ellipsis: '…',
    hideOverlap: false,
  };
}

export function donut(rows: Counted[], enumOf: (v: number | null) => EnumLabel, dark = false): EChartsCoreOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0, textStyle: { color: text(dark) }, type: 'scroll' },
    series: [
      {
        type: 'pie',
        radius: ['45%', '70%'],
        center: ['50%', '45%'],
        label: { color: text(dark), formatter: '{b}\n{c}' },
        data: rows.map((r) => {
          const e = enumOf(r.value);
          return { name: e.label, value: r.count, itemStyle: e.color ? { color: TOKEN_COLOURS[e.color] ?? e.color } : undefined };
        }),
      },
    ],
  };
}

export function bars(rows: Counted[], enumOf: (v: number | null) => EnumLabel, dark = false): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: rows.map((r) => enumOf(r.value).label),
      axisLabel: categoryLabels(
        rows.map((r) => enumOf(r.value).label),
        dark,
        5,
      ),
    },
    yAxis: { type: 'value', axisLabel: { color: text(dark) }, splitLine: { lineStyle: { opacity: 0.3 } } },
    series: [
      {
        type: 'bar',
        barMaxWidth: 36,
        label: { show: true, position: 'top', color: text(dark) },
        data: rows.map((r) => {
          const c = enumOf(r.value).color;
          return { value: r.count, itemStyle: { color: c ? (TOKEN_COLOURS[c] ?? c) : '#1677ff' } };
        }),
      },
    ],
  };
}

const LEVEL_COLOURS = { low: '#faad14', high: '#ff4d4f', ok: '#1677ff' };

/** stock per warehouse as bars coloured by level, min/max/theory as markers (top n warehouses) */
export function inventoryOption(inv: Summary['inventory'], L: Label, dark = false, n = 12): EChartsCoreOption {
  const rows = inv.slice(0, n);
  const marker = (name: string, key: 'min' | 'max' | 'theory', color: string, symbol: string) => ({
    name,
    type: 'scatter',
    symbol,
    symbolSize: 14,
    itemStyle: { color },
    data: rows.map((r) => r[key]),
  });
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, textStyle: { color: text(dark) } },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: rows.map((r) => r.name),
      axisLabel: categoryLabels(
        rows.map((r) => r.name),
        dark,
        6,
      ),
    },
    yAxis: { type: 'value', axisLabel: { color: text(dark) }, splitLine: { lineStyle: { opacity: 0.3 } } },
    series: [
      { name: L('dashboard.stock'), type: 'bar', barMaxWidth: 28, data: rows.map((r) => ({ value: r.count, itemStyle: { color: LEVEL_COLOURS[r.level] } })) },
      marker(L('dashboard.min'), 'min', '#faad14', 'triangle'),
      marker(L('dashboard.max'), 'max', '#ff4d4f', 'diamond'),
      marker(L('dashboard.theory'), 'theory', '#52c41a', 'circle'),
    ],
  };
}

export function trendOption(trend: Summary['alertTrend'], L: Label, dark = false): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, textStyle: { color: text(dark) }, type: 'scroll' },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', boundaryGap: false, data: trend.days.map((d) => d.slice(5)), axisLabel: { color: text(dark) } },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { color: text(dark) }, splitLine: { lineStyle: { opacity: 0.3 } } },
    series: trend.series.map((s) => ({
      name: L(`dashboard.category.${s.category}`),
      type: 'line',
      // one line per category, not stacked: a stacked top band read as the last category's total (issue 23)
      smooth: true,
      areaStyle: { opacity: 0.08 },
      symbol: 'none',
      itemStyle: { color: CATEGORY_COLOURS[s.category] },
      data: s.values,
    })),
  };
}

export function batteryOption(b: Battery, L: Label, dark = false): EChartsCoreOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0, type: 'scroll', textStyle: { color: text(dark) } },
    series: [
      {
        type: 'pie',
        radius: ['40%', '62%'],
        center: ['50%', '44%'],
        label: { color: text(dark), formatter: '{c}' },
        data: b.bands.map((x) => ({ name: L(`dashboard.battery.${x.band}`), value: x.count, itemStyle: { color: BATTERY_COLOURS[x.band] } })),
      },
    ],
  };
}

export function lifeCycleOption(bands: Summary['lifeCycle'], L: Label, dark = false): EChartsCoreOption {
  const colours: Record<string, string> = { under1: '#52c41a', from1to3: '#1677ff', over3: '#fa541c', unknown: '#8c8c8c' };
  return bars(
    bands.map((b, i) => ({ value: i, count: b.count })),
    (i) => ({ label: L(`dashboard.life.${bands[Number(i)].band}`), color: colours[bands[Number(i)].band] }),
    dark,
  );
}

/** warehouses as points on a lng/lat plane, sized by stock (no basemap needed, works offline) */
export function mapOption(m: MapPanel, L: Label, dark = false): EChartsCoreOption {
  const max = Math.max(1, ...m.warehouses.map((w) => w.count));
  // a name beside its point stays inside the chart: points in the eastern half carry it on their left
  const lngs = m.warehouses.map((w) => w.lnglat[0]);
  const middle = (Math.min(...lngs) + Math.max(...lngs)) / 2;
  return {
    tooltip: {
      trigger: 'item',
      formatter: (p: { data: { name: string; value: number[] } }) => `${p.data.name}<br/>${L('dashboard.stock')}: ${p.data.value[2]}`,
    },
    grid: { left: 28, right: 16, top: 16, bottom: 28, containLabel: true },
    xAxis: {
      type: 'value',
      scale: true,
      name: L('fields.longitude'),
      nameLocation: 'middle',
      nameGap: 26,
      nameTextStyle: { color: text(dark) },
      axisLabel: { color: text(dark) },
      splitLine: { lineStyle: { opacity: 0.15 } },
    },
    yAxis: {
      type: 'value',
      scale: true,
      name: L('fields.latitude'),
      nameLocation: 'middle',
      nameGap: 36,
      nameTextStyle: { color: text(dark) },
      axisLabel: { color: text(dark) },
      splitLine: { lineStyle: { opacity: 0.15 } },
    },
    series: [
      {
        type: 'scatter',
        symbolSize: (v: number[]) => 10 + (30 * v[2]) / max,
        label: { show: m.warehouses.length <= 20, formatter: '{b}', position: 'right', color: text(dark) },
        itemStyle: { color: '#1677ff', opacity: 0.8, borderColor: '#fff' },
        data: m.warehouses.map((w) => ({
          name: w.name,
          value: [w.lnglat[0], w.lnglat[1], w.count],
          itemStyle: w.color ? { color: w.color } : undefined,
          ...(m.warehouses.length > 1 && w.lnglat[0] > middle ? { label: { position: 'left' } } : {}),
        })),
      },
    ],
  };
}
