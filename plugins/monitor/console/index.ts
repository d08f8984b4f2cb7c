import { defineConsolePlugin } from '@rti/console/plugin-api';
import { ALERT_KINDS, FEED_CODE, processCode } from './alert-kinds';

/**
 * Monitor: beacon and GPS data-point screens, the alert screens' "Process" (a row action on
 * the generated lists and a banner on the generated detail) and the notification menu — a live header widget with the badge
 * that takes the place of the shell's bell for users who may read the alert feed.
 */
const dataPoints = () => import('./data-points');

export default defineConsolePlugin({
  id: 'monitor',
  pages: [
    {
      id: 'data-points-beacon',
      path: '/monitor/data-points-beacon',
      title: 'menu.dataPointsBeacon',
      component: () => dataPoints().then((m) => ({ default: m.BeaconDataPoints })),
    },
    {
      id: 'data-points-beacon-detail',
      path: '/monitor/data-points-beacon/detail',
      title: 'menu.dataPointsBeaconDetail',
      component: () => dataPoints().then((m) => ({ default: m.BeaconDataPoint })),
    },
    {
      id: 'data-points-gps',
      path: '/monitor/data-points-gps',
      title: 'menu.dataPointsGps',
      component: () => dataPoints().then((m) => ({ default: m.GpsDataPoints })),
    },
    {
      id: 'data-points-gps-detail',
      path: '/monitor/data-points-gps/detail',
      title: 'menu.dataPointsGpsDetail',
      component: () => dataPoints().then((m) => ({ default: m.GpsDataPoint })),
    },
  ],
  overrides: Object.fromEntries(ALERT_KINDS.map((k) => [k.resource, { show: () => import('./alert-show') }])),
  rowActions: ALERT_KINDS.map((k) => ({
    id: `process-${k.category}`,
    resources: [k.resource],
    viewCode: processCode(k),
    width: 90,
    replaces: 'process',
    component: () => import('./process-row-action'),
  })),
  headerWidgets: [{ id: 'unsolved-alerts', component: () => import('./alert-bell'), viewCode: FEED_CODE, order: 35, replaces: 'notifications' }],
});
