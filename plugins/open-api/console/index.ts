import { defineConsolePlugin } from '@rti/console/plugin-api';

/** /open-api: the organisation's API token (generate, refresh, delete). */
export default defineConsolePlugin({
  id: 'open-api',
  pages: [{ id: 'open-api', path: '/open-api', title: 'menu.openApi', component: () => import('./open-api-page') }],
  paletteActions: [
    {
      id: 'open-api-token',
      name: 'openApi.generate',
      section: 'palette.actions',
      keywords: 'token open api',
      viewCode: 'ViewOpenApi',
      perform: ({ navigate }) => navigate('/open-api'),
    },
  ],
});
