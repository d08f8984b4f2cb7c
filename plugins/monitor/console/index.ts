import { defineConsolePlugin, type NotificationSource } from '../../../console/src/plugin-api';
import { i18n } from '../../../console/src/i18n';
import { ALERT_KINDS, FEED_CODE, PER_CATEGORY } from './alert-kinds';
import { alertFeed } from './alert-feed';
import { alertItem, getKnownEnums } from './alert-items';

/**
 * Monitor: beacon and GPS data-point screens, the alert screens' "Process" (detail override; the list and detail themselves are
 * generated from metadata) and the notification menu — a live header widget with the badge,
 * and the same five categories as sources of the shell's bell.
 */
const sources: NotificationSource[] = ALERT_KINDS.map((k) => ({
  id: `alert-${k.category}`,
  title: k.title,
  viewCode: FEED_CODE,
  load: async () => {
    const state = await alertFeed.refresh();
    const t = (key: string) => i18n.t(key);
    return (state[k.category]?.list ?? []).slice(0, PER_CATEGORY).map((r) => alertItem(k, r, getKnownEnums(), t));
  },
}));

const dataPoints = () => import('./data-points');

export default defineConsolePlugin({
  id: 'monitor',
  pages: [
    { id: 'data-points-beacon', path: '/monitor/data-points-beacon', title: 'menu.dataPointsBeacon', component: () => dataPoints().then((m) => ({ default: m.BeaconDataPoints })) },
    { id: 'data-points-beacon-detail', path: '/monitor/data-points-beacon/detail', title: 'menu.dataPointsBeaconDetail', component: () => dataPoints().then((m) => ({ default: m.BeaconDataPoint })) },
    { id: 'data-points-gps', path: '/monitor/data-points-gps', title: 'menu.dataPointsGps', component: () => dataPoints().then((m) => ({ default: m.GpsDataPoints })) },
    { id: 'data-points-gps-detail', path: '/monitor/data-points-gps/detail', title: 'menu.dataPointsGpsDetail', component: () => dataPoints().then((m) => ({ default: m.GpsDataPoint })) },
  ],
  overrides: Object.fromEntries(ALERT_KINDS.map((k) => [k.resource, { show: () => import('./alert-show') }])),
  headerWidgets: [{ id: 'unsolved-alerts', component: () => import('./alert-bell'), viewCode: FEED_CODE, order: 35 }],
  notifications: sources,
});
