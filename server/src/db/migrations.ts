/**
 * Hand-written migrations, registered by area (core, access, plugins) before migrate() runs.
 * Each runs once, recorded by name in the `migrations` table (umzug).
 */
import type { QueryInterface, Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';

export interface MigrationContext {
  sequelize: Sequelize;
  queryInterface: QueryInterface;
  DataTypes: typeof DataTypes;
}

export interface Migration {
  /** unique and stable forever, e.g. "2026-11-22-access-sessions" */
  name: string;
  up(ctx: MigrationContext): Promise<void>;
  down?(ctx: MigrationContext): Promise<void>;
}

/** Migrations registered at module load by any area (import side effect). */
const registered: Migration[] = [];

export function registerMigration(m: Migration): void {
  if (registered.some((r) => r.name === m.name)) return;
  registered.push(m);
}

export const registeredMigrations = (): readonly Migration[] => registered;
