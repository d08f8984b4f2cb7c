import { defineConsolePlugin } from '@rti/console/plugin-api';

/** /system/screen-settings: platform administrators edit the metadata overlays of generated screens. */
export default defineConsolePlugin({
  id: 'screen-settings',
  pages: [{ id: 'screen-settings', path: '/system/screen-settings', title: 'menu.screenSettings', component: () => import('./screen-settings-page') }],
  paletteActions: [
    {
      id: 'screen-settings',
      name: 'menu.screenSettings',
      section: 'palette.actions',
      keywords: 'screen label column metadata overlay',
      viewCode: 'ViewScreenSettings',
      perform: ({ navigate }) => navigate('/system/screen-settings'),
    },
  ],
});
