/**
 * A test plugin whose own table points at device models: it declares that reference, so a
 * device model its rows still use cannot be deleted (server/test/references.test.ts).
 */
import { definePlugin } from '../../../../../src/plugin-api';

export default definePlugin({
  id: 'uses',
  ownTables: 'its uses_model_notes table',
  server(ctx) {
    ctx.addMigration({
      name: 'model-notes',
      async up({ queryInterface, DataTypes }) {
        await queryInterface.createTable('uses_model_notes', {
          id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
          device_model_id: { type: DataTypes.INTEGER, allowNull: false },
        });
      },
    });
    ctx.addCall({
      path: '/uses/note',
      async handler({ body }) {
        await ctx.db.getQueryInterface().bulkInsert('uses_model_notes', [{ device_model_id: Number(body.deviceModelId) }]);
        return true;
      },
    });
    ctx.references.declare({
      target: 'device-model',
      label: 'uses.notes',
      async count(ids, transaction) {
        const [rows] = await ctx.db.query(
          `SELECT device_model_id AS id, COUNT(*) AS n FROM uses_model_notes WHERE device_model_id IN (${ids.map(Number).join(',')}) GROUP BY device_model_id`,
          { transaction },
        );
        return new Map((rows as Array<{ id: number; n: number }>).map((r) => [Number(r.id), Number(r.n)]));
      },
    });
  },
});
