import { createElement } from 'react';
import { defineConsolePlugin } from '@rti/console/plugin-api';

/**
 * Vehicles and locating (SPEC §2 home group and standalone pages): vehicle list and track,
 * the full-screen vehicle monitor, the locating centre with its new-window carrier view, the
 * GPS report (listed under home and report) and the report-mail screenshot pages. Map
 * drawing comes from the map plugin; every page is its own chunk.
 */
const shot = (kind: 'tracks' | 'markers' | 'network' | 'carriers') => () =>
  import('./screen-shot').then((m) => ({ default: () => createElement(m.ScreenShot, { kind }) }));

export default defineConsolePlugin({
  id: 'vehicle',
  pages: [
    { id: 'vehicle', path: '/vehicle', title: 'menu.vehicle', component: () => import('./vehicle-list-page') },
    { id: 'vehicle-track', path: '/vehicle/track', title: 'menu.vehicleTrack', component: () => import('./vehicle-track-page') },
    { id: 'vehicle-monitor', path: '/vehicle/monitor', title: 'menu.vehicleMonitor', component: () => import('./vehicle-monitor-page'), standalone: true },
    { id: 'locating-center', path: '/locating-center', title: 'menu.locatingCenter', component: () => import('./locating-center-page') },
    { id: 'carrier-locating', path: '/carrier-locating', title: 'menu.carrierLocating', component: () => import('./carrier-locating-page'), standalone: true },
    { id: 'gps-report', path: '/gps/report', title: 'menu.gpsReport', component: () => import('./gps-report-page') },
    { id: 'report-gps-report', path: '/report/gps/report', title: 'menu.gpsReport', component: () => import('./gps-report-page') },
    {
      id: 'gps-report-screen-shot-map',
      path: '/gps/report/screen/shot/map',
      title: 'menu.gpsReportScreenShotMap',
      component: shot('tracks'),
      standalone: true,
    },
    {
      id: 'gps-report-screen-shot-marker',
      path: '/gps/report/screen/shot/marker',
      title: 'menu.gpsReportScreenShotMarker',
      component: shot('markers'),
      standalone: true,
    },
    {
      id: 'gps-report-screen-shot-map-other',
      path: '/gps/report/screen/shot/map/other',
      title: 'menu.gpsReportScreenShotMapOther',
      component: shot('network'),
      standalone: true,
      cached: true,
    },
    {
      id: 'gps-report-screen-shot-marker-other',
      path: '/gps/report/screen/shot/marker/other',
      title: 'menu.gpsReportScreenShotMarkerOther',
      component: shot('carriers'),
      standalone: true,
      cached: true,
    },
  ],
});
