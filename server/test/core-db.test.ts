import { loadMetadata, type Metadata } from '@rti/metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db';
import { indexPlan } from '../src/db/models';
import { createTestDatabase, type TestDatabase } from './support/test-database';

let tdb: TestDatabase;
const base = loadMetadata();
const open: Database[] = [];

async function migrated(meta: Metadata): Promise<Database> {
  const db = createDatabase(tdb.url, { metadata: meta, log: () => undefined });
  open.push(db);
  await db.migrate();
  return db;
}

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  for (const db of open) await db.close().catch(() => undefined);
  await tdb.drop();
});

const indexNames = async (db: Database, table: string) =>
  ((await db.sequelize.getQueryInterface().showIndex(table)) as Array<{ name: string }>).map((i) => i.name);

describe('metadata schema migration', () => {
  it('creates a table per resource with its indexes', async () => {
    const db = await migrated(base);
    const qi = db.sequelize.getQueryInterface();
    const tables = ((await qi.showAllTables()) as unknown[]).map((t) => (typeof t === 'string' ? t : (t as { tableName: string }).tableName));
    for (const res of Object.values(base.resources)) {
      const table = res.table ?? res.name.replace(/-/g, '_');
      expect(tables).toContain(table);
      const names = await indexNames(db, table);
      for (const ix of indexPlan(res)) expect(names, `${table} ${ix.name}`).toContain(ix.name);
    }
    const beacon = indexPlan(base.resources['device-beacon']);
    expect(beacon).toContainEqual(expect.objectContaining({ columns: ['org_id', 'sn'], unique: true }));
    expect(beacon).toContainEqual(expect.objectContaining({ columns: ['org_id', 'id'], unique: false }));
    expect(indexPlan(base.resources.user)).toContainEqual(expect.objectContaining({ columns: ['name'], unique: true }));
    const cols = await qi.describeTable('device_beacon');
    expect(Object.keys(cols)).toEqual(
      expect.arrayContaining(['id', 'org_id', 'sn', 'device_model_id', 'created_at', 'updated_at', 'created_by', 'updated_by']),
    );
  });

  it('runs once: a second migrate with the same metadata does nothing', async () => {
    const db = await migrated(base);
    const [rows] = await db.sequelize.query("SELECT name FROM migrations WHERE name LIKE 'metadata-schema-%'");
    expect(rows).toHaveLength(1);
  });

  it('adds new fields as columns and indexes, keeps rows and never drops removed ones', async () => {
    const db1 = open[0];
    await db1.models.shipper.create({ orgId: 1, name: 'kept' });
    const changed: Metadata = structuredClone(base);
    const shipper = changed.resources.shipper;
    shipper.fields = shipper.fields.filter((f) => f.name !== 'remark');
    shipper.fields.push({ name: 'flagCode', type: 'string', maxLength: 20, search: 'eq' });
    const db2 = await migrated(changed);
    const cols = await db2.sequelize.getQueryInterface().describeTable('shipper');
    expect(cols).toHaveProperty('flag_code');
    expect(cols).toHaveProperty('remark');
    expect(await indexNames(db2, 'shipper')).toContain('ix_shipper_org_id_flag_code');
    const rows = await db2.models.shipper.findAll();
    expect(rows.map((r) => r.get('name'))).toEqual(['kept']);
    const [schemaSteps] = await db2.sequelize.query("SELECT name FROM migrations WHERE name LIKE 'metadata-schema-%'");
    expect(schemaSteps).toHaveLength(2);
  });

  it('runs hand-written migrations once, after the schema step', async () => {
    const db = createDatabase(tdb.url, { metadata: base, log: () => undefined });
    open.push(db);
    const seen: string[] = [];
    db.addMigration({
      name: 'test-copy-names',
      async up({ sequelize }) {
        const [rows] = await sequelize.query('SELECT name FROM shipper');
        seen.push(...(rows as Array<{ name: string }>).map((r) => r.name));
      },
    });
    expect(() => db.addMigration({ name: 'test-copy-names', up: async () => undefined })).toThrow(/twice/);
    await db.migrate();
    await db.migrate();
    expect(seen).toEqual(['kept']);
  });

  it('indexes a searchable string only while its key fits every database (InnoDB: 3072 bytes)', () => {
    const res = structuredClone(base.resources.shipper);
    res.fields.push(
      { name: 'shortCode', type: 'string', maxLength: 500, search: 'like' },
      { name: 'longNote', type: 'string', maxLength: 800, search: 'like' },
    );
    const columns = indexPlan(res).map((p) => p.columns.join(','));
    expect(columns).toContain('org_id,short_code');
    expect(columns.some((c) => c.includes('long_note'))).toBe(false);
  });

  it('refuses an unknown database URL with a clear error', () => {
    expect(() => createDatabase('postgres://u:secret@h/db', { metadata: base })).toThrow(/sqlite:, mysql:\/\/ or mariadb:\/\//);
    expect(() => createDatabase('postgres://u:secret@h/db', { metadata: base })).not.toThrow(/secret/);
  });
});
