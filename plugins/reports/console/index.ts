import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

/**
 * The report group's pages (SPEC §2 /report/…) and the standalone report pages: each a generated
 * report page of a server definition (server/*.ts). A warehouse in the daily report opens its
 * codes on /inventory-report, in the weekly report its days on /inventory/report/week/detail; an
 * idle count opens the carriers behind it.
 */
export default defineConsolePlugin({
  id: 'reports',
  pages: [
    {
      id: 'inventory-daily-report',
      path: '/report/inventory/report/list',
      title: 'menu.inventoryDailyReport',
      component: reportPage('reports.inventory-daily'),
    },
    {
      id: 'inventory-weekly-report',
      path: '/report/inventory/report/week',
      title: 'menu.inventoryWeeklyReport',
      component: reportPage('reports.inventory-weekly'),
    },
    { id: 'inventory-report', path: '/inventory-report', title: 'menu.inventoryReport', component: reportPage('reports.inventory-daily-detail') },
    {
      id: 'inventory-weekly-report-detail',
      path: '/inventory/report/week/detail',
      title: 'menu.inventoryWeeklyReportDetail',
      component: reportPage('reports.inventory-weekly-detail'),
    },
    { id: 'three-batch-report', path: '/report/three-batch', title: 'menu.threeBatchReport', component: reportPage('reports.three-batch') },
    { id: 'idle-carrier', path: '/report/idle-carrier', title: 'menu.idleCarrier', component: reportPage('reports.idle-carrier-code') },
    { id: 'idle-carrier-list', path: '/report/idle-carrier/carriers', title: 'menu.idleCarrierList', component: reportPage('reports.idle-carrier') },
    // customer report plugins switched on or off for the current organisation
    { id: 'customer-reports', path: '/report/customer-reports', title: 'menu.customerReports', component: () => import('./customer-reports-page') },
  ],
});
