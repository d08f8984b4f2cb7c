/** Migrations of the access system tables, registered with the core's migration runner on import. */
import { DataTypes } from 'sequelize';
import { registerMigration } from '../db/migrations';
import { ONE_TIME_CODE_TABLE, oneTimeCodeColumns } from '../auth/one-time-codes';
import { POLICY_VERSION_TABLE, SESSION_TABLE, THROTTLE_TABLE, policyVersionColumns, sessionColumns, throttleColumns } from './tables';

registerMigration({
  name: '2026-11-22-access-system-tables',
  async up({ queryInterface: qi }) {
    // the table as it was then: later columns and types come from their own migrations
    const { language: _added, ...firstColumns } = sessionColumns;
    await qi.createTable(SESSION_TABLE, { ...firstColumns, createdAt: { type: DataTypes.DATE, allowNull: false } });
    await qi.addIndex(SESSION_TABLE, ['userId'], { name: `ix_${SESSION_TABLE}_user_id` });
    await qi.createTable(THROTTLE_TABLE, throttleColumns);
    await qi.createTable(POLICY_VERSION_TABLE, policyVersionColumns);
  },
  async down({ queryInterface: qi }) {
    await qi.dropTable(POLICY_VERSION_TABLE);
    await qi.dropTable(THROTTLE_TABLE);
    await qi.dropTable(SESSION_TABLE);
  },
});

registerMigration({
  name: '2026-11-27-account-one-time-codes',
  async up({ queryInterface: qi }) {
    await qi.createTable(ONE_TIME_CODE_TABLE, oneTimeCodeColumns);
    await qi.addIndex(ONE_TIME_CODE_TABLE, ['userId', 'purpose'], { name: `ix_${ONE_TIME_CODE_TABLE}_user` });
    await qi.addColumn(SESSION_TABLE, 'language', { type: DataTypes.STRING(8), allowNull: true });
  },
  async down({ queryInterface: qi }) {
    await qi.removeColumn(SESSION_TABLE, 'language');
    await qi.dropTable(ONE_TIME_CODE_TABLE);
  },
});

registerMigration({
  name: '2026-11-28-session-created-ms',
  async up({ queryInterface: qi, sequelize }) {
    // MariaDB's DATETIME keeps whole seconds: two sign-ins in one second tied on "the latest".
    // SQLite stores the text with milliseconds already; its changeColumn would copy the table.
    if (sequelize.getDialect() === 'sqlite') return;
    await qi.changeColumn(SESSION_TABLE, 'createdAt', sessionColumns.createdAt);
  },
});
