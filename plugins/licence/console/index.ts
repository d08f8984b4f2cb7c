import { defineConsolePlugin } from '@rti/console/plugin-api';

const page = (mode: 'verify' | 'import' | 'update') => () => import('./licence-page').then((m) => ({ default: m.pages[mode] }));

/** Licence screens (SPEC §2): verify, import, update — one page in three modes. */
export default defineConsolePlugin({
  id: 'licence',
  pages: [
    { id: 'licence-verify', path: '/licence/verify', title: 'menu.licenceVerify', component: page('verify') },
    { id: 'licence-import', path: '/licence/import', title: 'menu.licenceImport', component: page('import') },
    { id: 'licence-update', path: '/licence/update', title: 'menu.licenceUpdate', component: page('update') },
  ],
  // platform administrators: no licence, or one about to block (said before it does)
  headerWidgets: [{ id: 'licence-banner', component: () => import('./licence-banner'), order: 20 }],
});
