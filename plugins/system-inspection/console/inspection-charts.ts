/** ECharts options of the inspection page (pure). */
import type { EChartsCoreOption } from 'echarts/core';
import { formatBytes, type Inspection } from './inspection-data';
import { formatDateTime } from '@rti/console/plugin-api';

type L = (k: string) => string;
const axisTime = (ts: number[]) => ts.map((t) => formatDateTime(t, 'clock'));

export function gaugeOption(value: number, name: string): EChartsCoreOption {
  return {
    series: [
      {
        type: 'gauge',
        radius: '95%',
        min: 0,
        max: 100,
        progress: { show: true, width: 12, itemStyle: { color: value >= 90 ? '#ff4d4f' : value >= 75 ? '#faad14' : '#52c41a' } },
        axisLine: {
          lineStyle: {
            width: 12,
            color: [
              [0.75, '#52c41a'],
              [0.9, '#faad14'],
              [1, '#ff4d4f'],
            ],
          },
        },
        axisTick: { show: false },
        splitLine: { length: 8, lineStyle: { width: 1 } },
        axisLabel: { distance: 16, fontSize: 10 },
        pointer: { width: 4 },
        title: { offsetCenter: [0, '70%'], fontSize: 12 },
        detail: { valueAnimation: true, formatter: '{value}%', fontSize: 20, offsetCenter: [0, '35%'] },
        data: [{ value: Math.round(value * 10) / 10, name }],
      },
    ],
  };
}

export function cpuOption(cpu: Inspection['cpu'], t: L): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v}%` },
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', boundaryGap: false, data: axisTime(cpu.samples.map((s) => s.time)) },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      {
        name: t('systemInspection.cpuHost'),
        type: 'line',
        smooth: true,
        symbol: cpu.samples.length < 3 ? 'circle' : 'none',
        areaStyle: { opacity: 0.2 },
        data: cpu.samples.map((s) => s.cpu),
      },
      {
        name: t('systemInspection.cpuProcess'),
        type: 'line',
        smooth: true,
        symbol: cpu.samples.length < 3 ? 'circle' : 'none',
        data: cpu.samples.map((s) => s.processCpu),
      },
    ],
  };
}

export function memOption(mem: Inspection['mem'], t: L): EChartsCoreOption {
  const gb = (n: number) => Math.round((n / 1024 ** 3) * 100) / 100;
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v} GB` },
    legend: { top: 0 },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', boundaryGap: false, data: axisTime(mem.samples.map((s) => s.time)) },
    yAxis: { type: 'value', min: 0, max: gb(mem.total), axisLabel: { formatter: '{value} GB' } },
    series: [
      {
        name: t('systemInspection.memUsed'),
        type: 'line',
        smooth: true,
        symbol: mem.samples.length < 3 ? 'circle' : 'none',
        areaStyle: { opacity: 0.2 },
        data: mem.samples.map((s) => gb(s.used)),
      },
      {
        name: t('systemInspection.memProcess'),
        type: 'line',
        smooth: true,
        symbol: mem.samples.length < 3 ? 'circle' : 'none',
        data: mem.samples.map((s) => gb(s.processRss)),
      },
    ],
  };
}

const PART_COLOURS: Record<string, string> = { database: '#1677ff', telemetry: '#13c2c2', other: '#faad14', free: '#d9d9d9' };

export function occupancyOption(o: Inspection['occupancy'], t: L): EChartsCoreOption {
  return {
    tooltip: { trigger: 'item', formatter: (p: { name: string; value: number; percent: number }) => `${p.name}: ${formatBytes(p.value)} (${p.percent}%)` },
    legend: { bottom: 0 },
    series: [
      {
        type: 'pie',
        radius: ['40%', '68%'],
        center: ['50%', '45%'],
        label: { formatter: (p: { percent: number }) => (p.percent >= 1 ? `${p.percent}%` : '') },
        labelLine: { show: false },
        data: o.parts.map((p) => ({ name: t(`systemInspection.part.${p.name}`), value: p.value, itemStyle: { color: PART_COLOURS[p.name] } })),
      },
    ],
  };
}

export function dbOption(c: Inspection['dbChart']): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value' },
    yAxis: { type: 'category', inverse: true, data: c.categories, axisLabel: { interval: 0, fontSize: 11 } },
    series: [{ type: 'bar', barMaxWidth: 18, label: { show: true, position: 'right' }, itemStyle: { color: '#1677ff' }, data: c.values }],
  };
}

const BAND_COLOURS: Record<string, string> = { high: '#52c41a', middle: '#faad14', low: '#ff4d4f' };

export function batteryOption(b: Inspection['battery'], t: L): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: [...b.bands.map((x) => `${x.from}–${x.to} %`), t('systemInspection.noLevel')] },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      {
        type: 'bar',
        barMaxWidth: 48,
        label: { show: true, position: 'top' },
        data: [...b.bands.map((x) => ({ value: x.count, itemStyle: { color: BAND_COLOURS[x.band] } })), { value: b.unknown, itemStyle: { color: '#bfbfbf' } }],
      },
    ],
  };
}
