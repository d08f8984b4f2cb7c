/**
 * An Agenda 6 backend (its documented AgendaBackend interface) on the server's own SQL
 * database: storage only, so Agenda polls (processEvery). The connection belongs to the
 * server, so stopping Agenda never closes it.
 */
import type { AgendaBackend } from 'agenda';
import type { Sequelize } from 'sequelize';
import { SqlJobRepository } from './sql-job-repository';
import { defineTables } from './tables';

export class SqlBackend implements AgendaBackend {
  readonly name = 'SQL (Sequelize)';
  readonly repository: SqlJobRepository;
  readonly ownsConnection = false;

  constructor(sequelize: Sequelize) {
    this.repository = new SqlJobRepository(defineTables(sequelize).jobs);
  }

  connect(): Promise<void> {
    return this.repository.connect();
  }

  async disconnect(): Promise<void> {
    // the server closes its own connection
  }
}
