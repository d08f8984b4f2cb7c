import { defineConsolePlugin } from '../../../console/src/plugin-api';

/**
 * System inspection. menu.json lists the page under Home (/system-inspection) and Monitor
 * (/monitor/system-inspection) with the same page id, so both paths register it.
 */
const component = () => import('./inspection-page');
export default defineConsolePlugin({
  id: 'system-inspection',
  pages: [
    { id: 'system-inspection', path: '/system-inspection', title: 'menu.systemInspection', component },
    { id: 'system-inspection', path: '/monitor/system-inspection', title: 'menu.systemInspection', component },
  ],
});
