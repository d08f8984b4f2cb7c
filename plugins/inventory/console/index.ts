import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

/**
 * Inventory screens (SPEC §2 /inventory-manage): the real-time view per warehouse and carrier code,
 * the inventory query per warehouse (now or at a day's close) and the carriers behind a figure —
 * generated report pages of the server's definitions (server/views.ts). A figure's link opens the
 * carriers behind it, filtered by the link's parameters. Adjustment orders are generated screens
 * of their metadata (list, create/edit with their carriers, detail with the Adjust step).
 */
export default defineConsolePlugin({
  id: 'inventory',
  pages: [
    { id: 'inventory-realtime', path: '/inventory-manage/inventory/realtime', title: 'menu.inventoryRealtime', component: reportPage('inventory.realtime') },
    { id: 'inventory-query', path: '/inventory-manage/inventory/query', title: 'menu.inventoryQuery', component: reportPage('inventory.query') },
    { id: 'inventory-silent', path: '/inventory-manage/inventory/silent', title: 'menu.inventorySilent', component: reportPage('inventory.silent') },
    {
      id: 'inventory-suggestion',
      path: '/inventory-manage/inventory/suggestion',
      title: 'menu.inventorySuggestion',
      component: reportPage('inventory.suggestion'),
    },
    { id: 'inventory-loss', path: '/inventory-manage/inventory/loss', title: 'menu.inventoryLoss', component: reportPage('inventory.loss') },
    {
      id: 'inventory-real-detail',
      path: '/inventory-manage/inventory/realtime/detail',
      title: 'menu.inventoryRealDetail',
      component: reportPage('inventory.real-detail'),
    },
  ],
});
