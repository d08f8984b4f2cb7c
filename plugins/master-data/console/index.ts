import { defineConsolePlugin } from '@rti/console/plugin-api';

/** /system/config: the organisation's settings row (server: /config, /config/update). */
export default defineConsolePlugin({
  id: 'master-data',
  pages: [{ id: 'config', path: '/system/config', title: 'menu.config', component: () => import('./config-page') }],
});
