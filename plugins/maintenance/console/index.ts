import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

/**
 * Maintenance: the records, assets, transfers and reminders are generated screens of their
 * metadata; the two reports are generated report pages of the server's report definitions; the
 * asset list refreshes from carriers and an asset's detail lists its repairs (zones).
 */
export default defineConsolePlugin({
  id: 'maintenance',
  pages: [
    { id: 'maintenance-record-top', path: '/maintenance/maintenance-record-top', title: 'menu.maintenanceRecordTop', component: reportPage('maintenance.top') },
    {
      id: 'maintenance-record-report',
      path: '/maintenance/maintenance-record-report',
      title: 'menu.maintenanceRecordReport',
      component: reportPage('maintenance.report'),
    },
  ],
  zones: {
    'carrier-asset.list.toolbar': { component: () => import('./refresh-assets'), viewCode: 'ApiCarrierAssetRefresh' },
    'carrier-asset.show.after': { component: () => import('./asset-history'), viewCode: 'ApiCarrierAssetMaintenanceRecordBycarrier' },
  },
});
