/**
 * The one chart library of the console: ECharts, tree-shaken from echarts/core with only the
 * chart types and components the dashboards and inspection use, canvas renderer. Imported
 * lazily by <EChart>, so no page pays for it until it draws a chart.
 */
import * as echarts from 'echarts/core';
import { BarChart, GaugeChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  BarChart,
  GaugeChart,
  LineChart,
  PieChart,
  ScatterChart,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export { echarts };
