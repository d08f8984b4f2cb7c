import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

/**
 * Shipping's console half: the ship order's "Add carriers" and "Containerize" screens (declared
 * record pages beside the generated document, opened from its detail page), the ship-order
 * monitor map (SPEC §2 home group) and the trucks report. Each is its own lazy chunk.
 */

/** what the order's screens show above their panel */
const FRAME = ['status', 'shipperWarehouseId', 'receiverWarehouseId', 'totalAmount'];

export default defineConsolePlugin({
  id: 'shipping',
  pages: [
    { id: 'ship-order-monitor', path: '/ship-order/monitor', title: 'menu.shipOrderMonitor', component: () => import('./monitor-page') },
    // trucks: the generated page of the server's report definition, and one shipment's detail
    { id: 'truck', path: '/report/truck', title: 'menu.truck', component: reportPage('shipping.trucks') },
    { id: 'truck-detail', path: '/report/truck/detail', title: 'menu.truckDetail', component: () => import('./truck-detail') },
  ],
  // the ship order's own screens (SPEC §2), opened from its detail page while its lines may change
  recordPages: [
    {
      id: 'ship-order-add-carrier',
      path: '/ship-order-manage/ship-order/add-carrier',
      title: 'menu.shipOrderAddCarrier',
      heading: 'shipping.addCarriersTitle',
      resource: 'ship-order',
      fields: FRAME,
      whileLinesOpen: true,
      // the generated lines with "Add by serial", its picker of carriers in the shipper warehouse, and the shipping-list import
      panel: 'lines',
      adding: true,
      button: { label: 'shipping.addCarriers', viewCode: 'ApiShipOrderDetailBatchAdd' },
    },
    {
      // the generated lines, ticked and packed with "Set for selected" (a container number)
      id: 'ship-order-containerize',
      path: '/ship-order-manage/ship-order/containerize',
      title: 'menu.shipOrderContainerize',
      heading: 'shipping.containerizeTitle',
      resource: 'ship-order',
      fields: FRAME,
      whileLinesOpen: true,
      panel: 'lines',
      button: { label: 'shipping.containerize', viewCode: 'ApiShipOrderDetailBatchUpdate' },
    },
  ],
  // receiving a receipt is the platform's: its scan panel and line step buttons, from the receipt
  // lines' `scan` and `transitions` metadata
});
