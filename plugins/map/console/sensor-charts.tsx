/**
 * Temperature, humidity, shock and pressure of a history in four stacked grids of one chart,
 * with a cursor line following the playback. ECharts with on-demand imports (echarts/core +
 * the line chart and the components used) is the product's one chart library — see README.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent, MarkLineComponent, TitleComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([LineChart, GridComponent, TooltipComponent, MarkLineComponent, TitleComponent, CanvasRenderer]);

export interface SensorColumns {
  t: number[];
  temp: (number | null)[];
  hum: (number | null)[];
  shock: (number | null)[];
  pres: (number | null)[];
}

const SERIES = [
  { key: 'temp', color: '#ff4d4f', unit: '°C' },
  { key: 'hum', color: '#1677ff', unit: '%' },
  { key: 'shock', color: '#722ed1', unit: 'G' },
  { key: 'pres', color: '#13c2c2', unit: 'kPa' },
] as const;

export function SensorCharts({ data, cursor, onSeek }: { data: SensorColumns; cursor: number | null; onSeek?: (t: number) => void }) {
  const { t } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | undefined>(undefined);

  useEffect(() => {
    const c = echarts.init(el.current!, undefined, { renderer: 'canvas' });
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current!);
    return () => {
      ro.disconnect();
      c.dispose();
    };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const h = 100 / SERIES.length;
    c.setOption(
      {
        animation: false,
        tooltip: { trigger: 'axis' },
        title: SERIES.map((s, i) => ({
          text: `${t(`map.sensors.${s.key}`)} (${s.unit})`,
          top: `${i * h}%`,
          left: 8,
          textStyle: { fontSize: 12, fontWeight: 500 },
        })),
        grid: SERIES.map((_, i) => ({ top: `${i * h + 5}%`, height: `${h - 9}%`, left: 48, right: 16 })),
        xAxis: SERIES.map((_, i) => ({ type: 'time', gridIndex: i, axisLabel: { show: i === SERIES.length - 1, fontSize: 10 } })),
        yAxis: SERIES.map((_, i) => ({ type: 'value', gridIndex: i, scale: true, splitNumber: 2, axisLabel: { fontSize: 10 } })),
        series: SERIES.map((s, i) => ({
          type: 'line',
          name: t(`map.sensors.${s.key}`),
          xAxisIndex: i,
          yAxisIndex: i,
          showSymbol: false,
          connectNulls: true,
          lineStyle: { width: 1.5, color: s.color },
          itemStyle: { color: s.color },
          data: data.t.map((x, k) => [x, data[s.key][k]]),
          markLine: { silent: true, symbol: 'none', animation: false, label: { show: false }, lineStyle: { color: '#fa8c16' }, data: [] },
        })),
      },
      true,
    );
    c.off('click');
    c.on('click', (p: { value?: unknown }) => Array.isArray(p.value) && onSeek?.(Number(p.value[0])));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, t]);

  useEffect(() => {
    chart.current?.setOption({ series: SERIES.map(() => ({ markLine: { data: cursor === null ? [] : [{ xAxis: cursor }] } })) });
  }, [cursor]);

  return <div ref={el} data-testid="history-charts" style={{ width: '100%', height: '100%' }} />;
}
