export { createDatabase, type Database, type DatabaseOptions, type Dialect } from './database';
export { registerMigration, type Migration, type MigrationContext } from './migrations';
export { snakeCase, tableName, orgFieldOf } from './naming';
export type { ResourceModel } from './models';
