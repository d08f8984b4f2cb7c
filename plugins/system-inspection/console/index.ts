import { defineConsolePlugin } from '@rti/console/plugin-api';

/**
 * System inspection, listed under Home (/system-inspection) and Monitor
 * (/monitor/system-inspection): one component, two pages with their own ids.
 */
const component = () => import('./inspection-page');
export default defineConsolePlugin({
  id: 'system-inspection',
  pages: [
    { id: 'system-inspection', path: '/system-inspection', title: 'menu.systemInspection', component },
    { id: 'monitor-system-inspection', path: '/monitor/system-inspection', title: 'menu.systemInspection', component },
  ],
});
