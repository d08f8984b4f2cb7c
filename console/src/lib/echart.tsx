import { useEffect, useRef, type CSSProperties } from 'react';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';

let lib: Promise<typeof import('./echarts-setup')> | undefined;
const loadECharts = () => (lib ??= import('./echarts-setup'));

export interface EChartProps {
  option: EChartsCoreOption;
  height?: number | string;
  style?: CSSProperties;
  /** 'dark' on the big screen */
  theme?: string;
  testId?: string;
}

/**
 * One ECharts instance in a div: created when the library has loaded, fed each new option
 * (merged, so refreshes animate instead of redrawing), resized with its box, disposed on
 * unmount.
 */
export function EChart({ option, height = 280, style, theme, testId }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType>(null);
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    let disposed = false;
    let ro: ResizeObserver | undefined;
    void loadECharts().then(({ echarts }) => {
      if (disposed || !el.current) return;
      chart.current = echarts.init(el.current, theme, { renderer: 'canvas' });
      chart.current.setOption(latest.current);
      ro = new ResizeObserver(() => chart.current?.resize());
      ro.observe(el.current);
    });
    return () => {
      disposed = true;
      ro?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [theme]);

  useEffect(() => {
    chart.current?.setOption(option);
  }, [option]);

  return <div ref={el} data-testid={testId} style={{ width: '100%', height, ...style }} />;
}

export default EChart;
