/** A plugin whose start fails: the server must refuse to start and name it. */
import { definePlugin } from '../../../../../src/plugin-api';

export default definePlugin({
  id: 'broken',
  server(ctx) {
    ctx.addCall({ path: '/metadata', handler: () => null });
  },
});
