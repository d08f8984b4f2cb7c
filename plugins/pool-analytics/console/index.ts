import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

/** The pool analytics pages: each the generated report page of a server definition (server/*.ts). */
export default defineConsolePlugin({
  id: 'pool-analytics',
  pages: [
    { id: 'pool-turns', path: '/report/pool/turns', title: 'menu.poolTurns', component: reportPage('pool-analytics.turns') },
    {
      id: 'pool-partner-balance',
      path: '/report/pool/partner-balance',
      title: 'menu.poolPartnerBalance',
      component: reportPage('pool-analytics.partner-balance'),
    },
    {
      id: 'pool-partner-history',
      path: '/report/pool/partner-history',
      title: 'menu.poolPartnerHistory',
      component: reportPage('pool-analytics.partner-history'),
    },
    {
      id: 'pool-partner-statement',
      path: '/report/pool/partner-statement',
      title: 'menu.poolPartnerStatement',
      // the generated page with a PDF of one partner's statement above it
      component: () => import('./statement-page'),
    },
    { id: 'pool-size', path: '/report/pool/size', title: 'menu.poolSize', component: reportPage('pool-analytics.pool-size') },
  ],
});
