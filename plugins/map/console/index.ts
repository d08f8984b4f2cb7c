import { defineConsolePlugin } from '@rti/console/plugin-api';
import { requestListEarly } from './early-list';

/**
 * Map screens (SPEC §2 home group): live map, map across organisations, track histories on
 * provider A (/map/history) and provider B (/map/bingHistory), and the provider switch in the
 * header. Every page and both providers are separate chunks.
 */
const preload = (admin: boolean) => {
  requestListEarly(admin);
  void import('./map-prefetch').then((m) => m.startMapEarly(admin));
};

export default defineConsolePlugin({
  id: 'map',
  pages: [
    // opened straight on a map, /map/list starts with the session calls and the provider chunk right after
    { id: 'map', path: '/map', title: 'menu.map', component: () => import('./map-page'), cached: true, preload: () => preload(false) },
    { id: 'map-admin', path: '/map-admin', title: 'menu.mapAdmin', component: () => import('./map-admin-page'), preload: () => preload(true) },
    { id: 'map-history', path: '/map/history', title: 'menu.mapHistory', component: () => import('./history-page') },
    { id: 'map-history-admin', path: '/map/history/admin', title: 'menu.mapHistoryAdmin', component: () => import('./history-admin-page') },
    { id: 'map-bing-history', path: '/map/bingHistory', title: 'menu.mapBingHistory', component: () => import('./bing-history-page') },
    { id: 'map-bing-history-admin', path: '/map/bingHistory/admin', title: 'menu.mapBingHistoryAdmin', component: () => import('./bing-history-admin-page') },
  ],
  headerWidgets: [{ id: 'map-type', component: () => import('./map-type-widget'), viewCode: 'ViewMap', order: 40 }],
  // carrier → map → history in one place: the detail pages link to both
  rowActions: [{ id: 'record-map', resources: ['carrier', 'device-gps'], where: ['detail'], component: () => import('./record-map-actions') }],
  // a location's coordinates picked on the map, in its create and edit forms
  zones: { 'location.form.after': () => import('./coordinate-picker') },
});
