import { defineConsolePlugin } from '@rti/console/plugin-api';
import { loadDashboardEarly } from './dashboard-data';

/** Dashboards: the landing page /dashboard-home and the big screen /dashboard (new window). */
export default defineConsolePlugin({
  id: 'dashboard',
  pages: [
    // opened straight (or right after login), its five calls start once the page's code is in, before
    // the shell and the page have rendered (not earlier: on one machine they would hold up the chunks)
    {
      id: 'dashboard-home',
      path: '/dashboard-home',
      title: 'menu.dashboardHome',
      component: () => import('./home-page'),
      preload: () => void import('./home-page').then(loadDashboardEarly, () => undefined),
    },
    { id: 'dashboard', path: '/dashboard', title: 'menu.dashboard', component: () => import('./big-screen'), standalone: true },
  ],
  paletteActions: [
    {
      id: 'dashboard-big-screen',
      name: 'dashboard.bigScreen',
      section: 'palette.actions',
      keywords: 'dashboard big screen',
      viewCode: 'ViewDashboard',
      perform: () => void window.open('/dashboard', '_blank', 'noopener'),
    },
  ],
});
