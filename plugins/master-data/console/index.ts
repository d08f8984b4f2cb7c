import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

/**
 * /system/config: the organisation's settings row (server: /config, /config/update); the daily
 * and weekly inventory reports: generated report pages of the server's report definitions.
 */
export default defineConsolePlugin({
  id: 'master-data',
  pages: [
    { id: 'config', path: '/system/config', title: 'menu.config', component: () => import('./config-page') },
    { id: 'inventory-daily-report', path: '/report/inventory/report/list', title: 'menu.inventoryDailyReport', component: reportPage('master-data.inventory-daily') },
    { id: 'inventory-weekly-report', path: '/report/inventory/report/week', title: 'menu.inventoryWeeklyReport', component: reportPage('master-data.inventory-weekly') },
  ],
});
