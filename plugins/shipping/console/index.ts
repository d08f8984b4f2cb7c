import { defineConsolePlugin } from '@rti/console/plugin-api';

/**
 * Shipping's console half: "Add carriers" (serials, warehouse picker, import) and
 * "Containerize" on a ship order's detail page — actions beside the generated document, not
 * replacements of it — and the ship-order monitor map (SPEC §2 home group). Each is its own
 * lazy chunk.
 */
export default defineConsolePlugin({
  id: 'shipping',
  pages: [{ id: 'ship-order-monitor', path: '/ship-order/monitor', title: 'menu.shipOrderMonitor', component: () => import('./monitor-page') }],
  rowActions: [
    { id: 'ship-order-add-carriers', resources: ['ship-order'], where: ['detail'], viewCode: 'ApiShipOrderDetailBatchAdd', component: () => import('./add-carriers') },
    { id: 'ship-order-containerize', resources: ['ship-order'], where: ['detail'], viewCode: 'ApiShipOrderDetailBatchUpdate', component: () => import('./containerize') },
  ],
});
