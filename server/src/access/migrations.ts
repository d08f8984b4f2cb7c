/** Migrations of the access system tables, registered with the core's migration runner on import. */
import { registerMigration } from '../db/migrations';
import {
  POLICY_VERSION_TABLE,
  SESSION_TABLE,
  THROTTLE_TABLE,
  policyVersionColumns,
  sessionColumns,
  throttleColumns,
} from './tables';

registerMigration({
  name: '2026-11-22-access-system-tables',
  async up({ queryInterface: qi }) {
    await qi.createTable(SESSION_TABLE, sessionColumns);
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
