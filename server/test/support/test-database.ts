/**
 * A fresh database per test file: a temp SQLite file by default, or a throwaway database on
 * the MariaDB/MySQL server of TEST_MYSQL_URL (the CI scripts start one), dropped afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

export interface TestDatabase {
  url: string;
  dialect: 'sqlite' | 'mysql';
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const server = process.env.TEST_MYSQL_URL;
  if (server) {
    const base = new URL(server.replace(/^mariadb:/, 'mysql:'));
    const name = `rti_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = () =>
      mysql.createConnection({
        host: base.hostname,
        port: Number(base.port || 3306),
        user: decodeURIComponent(base.username) || 'root',
        password: decodeURIComponent(base.password) || undefined,
      });
    const conn = await admin();
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await conn.end();
    const url = new URL(base.href);
    url.pathname = `/${name}`;
    return {
      url: url.href,
      dialect: 'mysql',
      async drop() {
        const c = await admin();
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'rti-test-'));
  return {
    url: `sqlite:${join(dir, 'test.sqlite')}`,
    dialect: 'sqlite',
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
