import { defineConsolePlugin } from '@rti/console/plugin-api';

/**
 * /system/config: the organisation's settings row (server: /config, /config/update). The
 * inventory reports are the reports plugin's (plugins/reports).
 */
export default defineConsolePlugin({
  id: 'master-data',
  pages: [{ id: 'config', path: '/system/config', title: 'menu.config', component: () => import('./config-page') }],
});
