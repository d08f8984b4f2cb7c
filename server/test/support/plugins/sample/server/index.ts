/**
 * A test plugin exercising the whole server plugin API: calls (guarded and public), hooks,
 * a job, a migration for its own table and onReady.
 */
import { ApiError, ErrorCode, definePlugin } from '../../../../../src/plugin-api';

let afterCreates = 0;
let ticks = 0;

export default definePlugin({
  id: 'sample',
  ownTables: 'its sample_things table',
  server(ctx) {
    ctx.addMigration({
      name: 'things-table',
      async up({ queryInterface, DataTypes }) {
        await queryInterface.createTable('sample_things', {
          id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
          label: { type: DataTypes.STRING(50), allowNull: false },
        });
      },
    });
    ctx.onReady(async () => {
      await ctx.db.getQueryInterface().bulkInsert('sample_things', [{ label: 'ready' }]);
    });

    ctx.addCall({
      path: '/sample/beacons',
      async handler({ body, ctx: call }) {
        const page = await ctx.repo('device-beacon', call).list(body);
        return { total: page.total, sns: page.list.map((r) => r.sn), greeting: ctx.t(call.language, 'server.success') };
      },
    });
    ctx.addCall({ path: '/sample/public', public: true, handler: () => ({ open: true }) });
    ctx.addCall({
      path: '/sample/stats',
      permission: null,
      async handler() {
        const [things] = await ctx.db.query('SELECT label FROM sample_things');
        return { afterCreates, ticks, things: (things as Array<{ label: string }>).map((t) => t.label) };
      },
    });

    ctx.hooks.before('create', 'device-model', (e) => {
      if (e.data?.name === 'forbidden-name') throw new ApiError(ErrorCode.validation, 'rules.deviceEnabledNoDelete');
      if (e.data?.name === 'shout') e.data.name = 'SHOUT';
    });
    ctx.hooks.after('create', '*', () => {
      afterCreates++;
    });
    ctx.jobs.every('tick', 20, () => {
      ticks++;
    });
  },
});
