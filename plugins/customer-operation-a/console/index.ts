import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

// the page in the report group, and the same report standalone under /inventory-report
export default defineConsolePlugin({
  id: 'customer-operation-a',
  pages: [
    { id: 'customer-operation-a', path: '/report/customer-operation-a/list', title: 'menu.customerOperationA', component: reportPage('customer-operation-a') },
    { id: 'customer-operation-a-page', path: '/inventory-report/customer-a', title: 'menu.customerOperationA', component: reportPage('customer-operation-a') },
  ],
});
