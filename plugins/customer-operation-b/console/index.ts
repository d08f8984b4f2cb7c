import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

// the page in the report group, and the same report standalone under /inventory-report
export default defineConsolePlugin({
  id: 'customer-operation-b',
  pages: [
    { id: 'customer-operation-b', path: '/report/customer-operation-b/list', title: 'menu.customerOperationB', component: reportPage('customer-operation-b') },
    { id: 'customer-operation-b-page', path: '/inventory-report/customer-b', title: 'menu.customerOperationB', component: reportPage('customer-operation-b') },
  ],
});
