/**
 * Where a pool-scale bench's data lives, built once by bulk SQL and kept: SQLite in a file
 * cached under <tmpdir>/rti-bench/ (RTI_BENCH_DIR moves it), MariaDB/MySQL (TEST_MYSQL_URL, or
 * `--mariadb` for a throwaway server whose data goes with it) in a database named by the size
 * that stays on that server; `--fresh` rebuilds. Also the SQL that differs between the two
 * dialects for the fixtures (sequences, padding, datetime arithmetic and literals).
 */
import { tmpdir } from 'node:os';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import type { Sequelize } from 'sequelize';
import type { Metadata } from '@rti/metadata';
import { syncSchema } from '../../server/src/db/schema-sync';

export const CACHE_DIR = process.env.RTI_BENCH_DIR ?? join(tmpdir(), 'rti-bench');
/** the table written last on MariaDB/MySQL: the database is complete */
export const DONE_TABLE = 'bench_complete';
export const flag = (name: string) => process.argv.includes(`--${name}`);

export type Dialect = 'sqlite' | 'mysql';

/** SQL that differs between SQLite and MariaDB/MySQL (bulk fixtures and floors) */
export function dialectSql(dialect: Dialect) {
  const sqlite = dialect === 'sqlite';
  return {
    sqlite,
    /** WITH prefix and FROM item of the sequence n = from..to (MariaDB's Sequence engine) */
    seq: (from: number, to: number) =>
      sqlite
        ? { with: `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to}) `, from: 'seq' }
        : { with: '', from: `(SELECT seq AS n FROM seq_${from}_to_${to}) AS seq` },
    pad: (x: string, w: number) => (sqlite ? `printf('%0${w}d', ${x})` : `LPAD(${x}, ${w}, '0')`),
    cat: (...parts: string[]) => (sqlite ? parts.join(' || ') : `CONCAT(${parts.join(', ')})`),
    /** a datetime `seconds` (an SQL expression) before the ISO instant `base` */
    secondsBefore: (base: string, seconds: string) =>
      sqlite
        ? `strftime('%Y-%m-%d %H:%M:%f +00:00', '${base.slice(0, 19).replace('T', ' ')}', '-' || (${seconds}) || ' seconds')`
        : `DATE_SUB('${base.slice(0, 23).replace('T', ' ')}', INTERVAL (${seconds}) SECOND)`,
    /** a datetime literal of the instant, as the server stores it */
    at: (t: Date) => (sqlite ? `'${t.toISOString().replace('T', ' ').replace('Z', ' +00:00')}'` : `'${t.toISOString().slice(0, 23).replace('T', ' ')}'`),
    /** a datetime expression as epoch days (fractional) */
    epochDays: (x: string) => (sqlite ? `(julianday(${x}) - 2440587.5)` : `(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', ${x}) / 86400000000.0)`),
  };
}

/**
 * The database of `prefix`-`size`: built by `build(url)` unless kept from an earlier run.
 * Returns the URL to start the server on, a label, the SQLite file (for floors read directly)
 * and the throwaway server's stop.
 */
export async function cachedDatabase(
  prefix: string,
  size: string,
  build: (databaseUrl: string) => Promise<void>,
): Promise<{ url: string; label: string; file?: string; stop?: () => Promise<void> }> {
  let server = process.env.TEST_MYSQL_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!server && flag('mariadb')) {
    const services = '../../scripts/lib/services.mjs';
    const { startMariadb } = (await import(services)) as { startMariadb(): Promise<{ url: string; stop(): Promise<void> }> };
    const m = await startMariadb();
    server = m.url;
    stop = m.stop;
  }
  if (server) {
    const b = new URL(server.replace(/^mariadb:/, 'mysql:'));
    const name = `rti_bench_${prefix.replace(/-/g, '_')}_${size.replace(/-/g, '_')}`;
    const admin = await mysql.createConnection({
      host: b.hostname,
      port: Number(b.port || 3306),
      user: decodeURIComponent(b.username) || 'root',
      password: decodeURIComponent(b.password) || undefined,
    });
    const [done] = (await admin.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?`, [name, DONE_TABLE])) as unknown as [
      unknown[],
    ];
    const url = new URL(b.href);
    url.pathname = `/${name}`;
    if (flag('fresh') || !done.length) {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await admin.end();
      await build(url.href);
    } else {
      await admin.end();
      console.log(`data: database ${name} (kept; --fresh rebuilds)`);
    }
    return { url: url.href, label: 'MariaDB/MySQL', stop };
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = join(CACHE_DIR, `${prefix}-${size}.sqlite`);
  if (flag('fresh') || !existsSync(file)) {
    const partial = `${file}.partial`;
    for (const x of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(x, { force: true });
    await build(`sqlite:${partial}`);
    renameSync(partial, file);
    console.log(`data: ${file}, ${(statSync(file).size / 2 ** 30).toFixed(2)} GB`);
  } else console.log(`data: ${file} (cached; --fresh rebuilds)`);
  return { url: `sqlite:${file}`, label: 'SQLite', file };
}

/**
 * After a bulk load: the server's own schema step (the secondary indexes dropped for the load),
 * the planner's statistics, and on MariaDB/MySQL the table that marks the database complete.
 */
export async function finishLoad(sequelize: Sequelize, models: Parameters<typeof syncSchema>[1], metadata: Metadata, tables: string[]): Promise<void> {
  const exec = (sql: string) => sequelize.query(sql);
  await syncSchema(sequelize, models, metadata, () => undefined);
  if (sequelize.getDialect() === 'sqlite') {
    await exec('ANALYZE');
    await exec('PRAGMA journal_mode = WAL');
  } else {
    await exec(`ANALYZE TABLE ${tables.join(', ')}`);
    await exec(`CREATE TABLE ${sequelize.getQueryInterface().quoteIdentifier(DONE_TABLE)} (id INT)`);
  }
}
