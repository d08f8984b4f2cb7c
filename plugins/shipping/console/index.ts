import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

/**
 * Shipping's console half: the "Add carriers" (serials, warehouse picker, import) and
 * "Containerize" screens of a ship order, opened by buttons on its detail page — beside the
 * generated document, not replacements of it — and the ship-order monitor map (SPEC §2 home
 * group). Each is its own lazy chunk.
 */
export default defineConsolePlugin({
  id: 'shipping',
  pages: [
    { id: 'ship-order-monitor', path: '/ship-order/monitor', title: 'menu.shipOrderMonitor', component: () => import('./monitor-page') },
    // the ship order's own screens (SPEC §2), opened from its detail page for `?id=`
    {
      id: 'ship-order-add-carrier',
      path: '/ship-order-manage/ship-order/add-carrier',
      title: 'menu.shipOrderAddCarrier',
      component: () => import('./add-carrier-page'),
    },
    {
      id: 'ship-order-containerize',
      path: '/ship-order-manage/ship-order/containerize',
      title: 'menu.shipOrderContainerize',
      component: () => import('./containerize-page'),
    },
    // trucks: the generated page of the server's report definition, and one shipment's detail
    { id: 'truck', path: '/report/truck', title: 'menu.truck', component: reportPage('shipping.trucks') },
    { id: 'truck-detail', path: '/report/truck/detail', title: 'menu.truckDetail', component: () => import('./truck-detail') },
  ],
  rowActions: [
    {
      id: 'shipping-add-carriers',
      resources: ['ship-order'],
      where: ['detail'],
      viewCode: 'ApiShipOrderDetailBatchAdd',
      component: () => import('./add-carriers'),
    },
    {
      id: 'shipping-containerize',
      resources: ['ship-order'],
      where: ['detail'],
      viewCode: 'ApiShipOrderDetailBatchUpdate',
      component: () => import('./containerize'),
    },
    { id: 'ship-order-print', resources: ['ship-order'], where: ['detail'], viewCode: 'ApiShipOrderPrint', component: () => import('./print-action') },
  ],
  // receiving a receipt is the platform's: its scan panel and line step buttons, from the receipt
  // lines' `scan` and `transitions` metadata
});
