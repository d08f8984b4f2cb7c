/**
 * ctx.schema: triggers and indexes a plugin declares over core tables, installed by the
 * platform (a changed set replaced whole, a dropped one removed), names checked against the
 * plugin's id, table and column names quoted for DDL. On SQLite and MariaDB (TEST_MYSQL_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryTypes } from 'sequelize';
import { loadMetadata } from '@rti/metadata';
import { pluginSchema, type SchemaObject } from '../src/plugins/schema';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ metadata: loadMetadata() });
}, 120_000);
afterAll(() => ts?.close());

describe('ctx.schema', () => {
  const triggers = async () =>
    (
      await ts.server.db.sequelize.query<{ n: string }>(
        ts.server.db.dialect === 'sqlite'
          ? `SELECT name AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'probe_%'`
          : `SELECT TRIGGER_NAME AS n FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME LIKE 'probe_%'`,
        { type: QueryTypes.SELECT },
      )
    )
      .map((r) => r.n)
      .sort();
  const declared = (version: number): SchemaObject[] => {
    const schema = pluginSchema('probe', ts.server.db);
    const carrier = schema.table('carrier');
    const body = schema.dialect === 'sqlite' ? 'BEGIN SELECT 1; END' : 'FOR EACH ROW SET @probe = 1';
    return [
      { kind: 'index', sql: `CREATE INDEX IF NOT EXISTS probe_carrier_sn ON ${carrier.name} (${carrier.column('orgId')}, ${carrier.column('sn')})` },
      { kind: 'trigger', sql: `CREATE TRIGGER probe_count_v${version}_ins AFTER INSERT ON ${carrier.name} ${body}` },
      { kind: 'trigger', sql: `CREATE TRIGGER probe_count_v${version}_del AFTER DELETE ON ${carrier.name} ${body}` },
    ];
  };

  it('installs a set once, replaces a changed one whole, drops it; installed() is per server, for any plugin', async () => {
    const schema = pluginSchema('probe', ts.server.db);
    expect(schema.installed('probe_count')).toBe(false);
    expect(await schema.ensure('probe_count', declared(1))).toBe(true);
    expect(await triggers()).toEqual(['probe_count_v1_del', 'probe_count_v1_ins']);
    expect(await schema.ensure('probe_count', declared(1))).toBe(false);
    // another plugin's context reads it (a reader of the maintained figures)
    expect(pluginSchema('reader', ts.server.db).installed('probe_count')).toBe(true);
    expect(await schema.ensure('probe_count', declared(2))).toBe(true);
    expect(await triggers()).toEqual(['probe_count_v2_del', 'probe_count_v2_ins']);
    // a partial set (one trigger lost) is put back whole
    await ts.server.db.sequelize.query('DROP TRIGGER probe_count_v2_del');
    expect(await schema.ensure('probe_count', declared(2))).toBe(true);
    expect(await triggers()).toEqual(['probe_count_v2_del', 'probe_count_v2_ins']);
    await schema.drop('probe_count');
    expect(await triggers()).toEqual([]);
    expect(schema.installed('probe_count')).toBe(false);
  });

  it("refuses names outside the plugin's, statements it does not know, unknown tables and fields", async () => {
    const schema = pluginSchema('probe', ts.server.db);
    const carrier = schema.table('carrier');
    await expect(schema.ensure('other_count', [])).rejects.toThrow(/must be named probe_/);
    await expect(
      schema.ensure('probe_count', [{ kind: 'trigger', sql: `CREATE TRIGGER other_x AFTER INSERT ON ${carrier.name} BEGIN SELECT 1; END` }]),
    ).rejects.toThrow(/trigger "other_x" must be named probe_/);
    await expect(
      schema.ensure('probe_count', [{ kind: 'trigger', sql: `CREATE TRIGGER probe_else_x AFTER INSERT ON ${carrier.name} BEGIN SELECT 1; END` }]),
    ).rejects.toThrow(/of set "probe_count" must be named probe_count_/);
    await expect(schema.ensure('probe_count', [{ kind: 'index', sql: `DROP TABLE ${carrier.name}` }])).rejects.toThrow(/must start "CREATE \[UNIQUE\] INDEX/);
    await expect(schema.ensure('probe_count', [{ kind: 'trigger', sql: 'DELETE FROM carrier' }])).rejects.toThrow(/must start "CREATE TRIGGER/);
    expect(() => schema.table('nope')).toThrow(/no resource "nope"/);
    expect(() => carrier.column('nope')).toThrow(/carrier has no field "nope"/);
    expect(carrier.column('inboundTime')).toBe('`inbound_time`');
    expect(await triggers()).toEqual([]);
  });
});
