import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

// the page in the report group, and the same report standalone under /inventory-report
export default defineConsolePlugin({
  id: 'customer-daily',
  pages: [
    { id: 'customer-daily', path: '/report/customer-daily/list', title: 'menu.customerDaily', component: reportPage('customer-daily') },
    { id: 'customer-daily-page', path: '/inventory-report/customer-daily', title: 'menu.customerDaily', component: reportPage('customer-daily') },
  ],
});
