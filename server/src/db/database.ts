/**
 * createDatabase(url): Sequelize on SQLite (embedded default) or MySQL/MariaDB (mysql2),
 * chosen by the URL alone, with metadata-derived models and umzug migrations.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataTypes, Sequelize, type Options } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Metadata } from '@rti/metadata';
import { registeredMigrations, type Migration, type MigrationContext } from './migrations';
import { defineModels, type ResourceModel } from './models';
import { schemaDigest, syncSchema } from './schema-sync';
import { sqliteDriver } from './sqlite-driver';
import { queueSqliteWriters } from './sqlite-writers';

export type Dialect = 'sqlite' | 'mysql';

export interface Database {
  sequelize: Sequelize;
  dialect: Dialect;
  metadata: Metadata;
  /** one model per metadata resource, keyed by resource name */
  models: Record<string, ResourceModel>;
  /** adds a hand-written migration (access/, plugins); call before migrate() */
  addMigration(m: Migration): void;
  /** metadata schema step, then pending hand-written migrations */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  metadata: Metadata;
  /** SQL logging (default off) */
  logging?: boolean | ((sql: string) => void);
  log?: (msg: string) => void;
}

function sequelizeFor(url: string, logging: Options['logging']): { sequelize: Sequelize; dialect: Dialect } {
  if (url.startsWith('sqlite:')) {
    const storage = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') || ':memory:';
    if (storage !== ':memory:') mkdirSync(dirname(storage), { recursive: true });
    const sequelize = new Sequelize({
      dialect: 'sqlite',
      dialectModule: sqliteDriver,
      storage,
      logging,
      // Writers take the lock when they begin, so a read-then-write never has to upgrade.
      transactionType: 'IMMEDIATE' as Options['transactionType'],
    });
    queueSqliteWriters(sequelize);
    return { sequelize, dialect: 'sqlite' };
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    const sequelize = new Sequelize(url.replace(/^mariadb:/, 'mysql:'), {
      dialect: 'mysql',
      logging,
      timezone: '+00:00',
      dialectOptions: { decimalNumbers: true, supportBigNumbers: true, charset: 'utf8mb4' },
      define: { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' },
      pool: { max: 10, min: 0, idle: 10000 },
    });
    return { sequelize, dialect: 'mysql' };
  }
  throw new Error(`DATABASE_URL must start with sqlite:, mysql:// or mariadb:// (got "${url.replace(/\/\/[^@]*@/, '//***@')}")`);
}

export function createDatabase(url: string, options: DatabaseOptions): Database {
  const { sequelize, dialect } = sequelizeFor(url, options.logging ?? false);
  const log = options.log ?? ((msg: string) => console.warn(msg));
  const models = defineModels(sequelize, options.metadata);
  const extra: Migration[] = [];

  const migrate = async () => {
    // Readers never wait for a writer in WAL mode; the setting is stored in the file.
    if (dialect === 'sqlite' && !url.includes(':memory:')) await sequelize.query('PRAGMA journal_mode = WAL');
    const context: MigrationContext = { sequelize, queryInterface: sequelize.getQueryInterface(), DataTypes };
    // The schema step is named by the digest of the derived schema, so it runs again exactly
    // when metadata changes; it comes first so hand-written migrations find every table.
    const schemaStep: Migration = {
      name: `metadata-schema-${schemaDigest(models, options.metadata)}`,
      up: () => syncSchema(sequelize, models, options.metadata, log),
    };
    const all = [schemaStep, ...registeredMigrations(), ...extra];
    const umzug = new Umzug<MigrationContext>({
      migrations: all.map((m) => ({ name: m.name, up: ({ context: c }) => m.up(c), down: m.down ? ({ context: c }) => m.down!(c) : undefined })),
      context,
      storage: new SequelizeStorage({ sequelize, tableName: 'migrations', modelName: 'umzug_migration' }),
      logger: undefined,
    });
    await umzug.up();
  };

  return {
    sequelize,
    dialect,
    metadata: options.metadata,
    models,
    addMigration: (m) => {
      if (extra.some((e) => e.name === m.name) || registeredMigrations().some((e) => e.name === m.name))
        throw new Error(`migration "${m.name}" is registered twice`);
      extra.push(m);
    },
    migrate,
    close: () => sequelize.close(),
  };
}
