/**
 * Embedded telemetry store on SQLite (its own file, apart from the business database, so
 * ingest never contends for its lock). One table per series, rows appended with multi-row
 * INSERTs inside one transaction per batch; the journal mark is written in the same
 * transaction, which makes replay after a crash exactly-once. WAL mode, synchronous=NORMAL.
 * Measured choice: see docs/TELEMETRY.md ("Embedded store").
 */
import fs from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { allSeries, type SeriesRow, type SeriesSchema } from './series';
import { keysOf, pageOf, type PointPage, type PointQuery, type SeriesBatch, type TelemetryStore } from './telemetry-store';

/** rows per INSERT statement: bounded by SQLite's 32766 bound-parameter limit */
const ROWS_PER_STATEMENT = 500;

interface Table {
  schema: SeriesSchema;
  cols: string[];
  insertMany: sqlite3.Statement;
  insertOne: sqlite3.Statement;
}

export interface SqliteStoreOptions {
  file: string;
  /** days of data kept; older rows are deleted by prune() (0 = keep forever) */
  retentionDays?: number;
  series?: readonly SeriesSchema[];
}

export class SqliteTelemetryStore implements TelemetryStore {
  readonly engine = 'sqlite';
  private db!: sqlite3.Database;
  private readonly tables = new Map<string, Table>();

  constructor(private readonly opts: SqliteStoreOptions) {}

  async init(): Promise<void> {
    if (this.opts.file !== ':memory:') fs.mkdirSync(path.dirname(this.opts.file), { recursive: true });
    this.db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const db = new sqlite3.Database(this.opts.file, (err) => (err ? reject(err) : resolve(db)));
    });
    this.db.serialize();
    await this.run('PRAGMA journal_mode=WAL');
    await this.run('PRAGMA synchronous=NORMAL');
    await this.run('PRAGMA busy_timeout=5000');
    await this.run('CREATE TABLE IF NOT EXISTS ingest_mark (id INTEGER PRIMARY KEY CHECK (id = 1), mark INTEGER NOT NULL)');
    for (const schema of this.opts.series ?? allSeries) {
      const cols = ['org', schema.key, 'time', ...schema.columns.map((c) => c.name)];
      const defs = [
        `"org" INTEGER NOT NULL`,
        `"${schema.key}" TEXT NOT NULL`,
        `"time" INTEGER NOT NULL`,
        ...schema.columns.map((c) => `"${c.name}" ${c.type === 'string' ? 'TEXT' : c.type === 'int' ? 'INTEGER' : 'REAL'}`),
      ];
      const t = `"tm_${schema.name}"`;
      await this.run(`CREATE TABLE IF NOT EXISTS ${t} (${defs.join(', ')})`);
      await this.run(`CREATE INDEX IF NOT EXISTS "tm_${schema.name}_key_time" ON ${t} (org, "${schema.key}", time)`);
      await this.run(`CREATE INDEX IF NOT EXISTS "tm_${schema.name}_time" ON ${t} (org, time)`);
      const one = `(${cols.map(() => '?').join(',')})`;
      const sql = (n: number) => `INSERT INTO ${t} (${cols.map((c) => `"${c}"`).join(',')}) VALUES ${Array(n).fill(one).join(',')}`;
      this.tables.set(schema.name, { schema, cols, insertMany: this.db.prepare(sql(ROWS_PER_STATEMENT)), insertOne: this.db.prepare(sql(1)) });
    }
  }

  async write(batches: readonly SeriesBatch[], mark?: number): Promise<void> {
    // Prepared statements run on their own queues, not the database's: each step is awaited
    // so BEGIN → inserts → mark → COMMIT really happen in that order.
    await this.run('BEGIN');
    const pending: Promise<void>[] = [];
    try {
      for (const b of batches) {
        const table = this.tables.get(b.series);
        if (!table) throw new Error(`telemetry: unknown series "${b.series}"`);
        const { rows } = b;
        let i = 0;
        for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT)
          pending.push(this.stmt(table.insertMany, params(table.cols, rows, i, ROWS_PER_STATEMENT)));
        for (; i < rows.length; i++) pending.push(this.stmt(table.insertOne, params(table.cols, rows, i, 1)));
      }
      await Promise.all(pending);
      if (mark !== undefined) await this.run('INSERT INTO ingest_mark (id, mark) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET mark = excluded.mark', [mark]);
      await this.run('COMMIT');
    } catch (err) {
      await Promise.allSettled(pending);
      await this.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  async appliedMark(): Promise<number> {
    const row = await this.get<{ mark: number }>('SELECT mark FROM ingest_mark WHERE id = 1');
    return row?.mark ?? 0;
  }

  async query(q: PointQuery): Promise<PointPage> {
    const table = this.table(q.series);
    const where: string[] = ['org = ?'];
    const args: unknown[] = [q.org];
    const keys = keysOf(q);
    if (keys) {
      if (keys.length === 0) return { list: [], total: 0 };
      where.push(`"${table.schema.key}" IN (${keys.map(() => '?').join(',')})`);
      args.push(...keys);
    }
    if (q.from !== undefined) (where.push('time >= ?'), args.push(q.from));
    if (q.to !== undefined) (where.push('time <= ?'), args.push(q.to));
    const { limit, offset } = pageOf(q);
    const w = where.join(' AND ');
    const t = `"tm_${table.schema.name}"`;
    const order = q.order === 'asc' ? 'ASC' : 'DESC';
    const [list, count] = await Promise.all([
      this.all<SeriesRow>(`SELECT ${this.selectCols(table)} FROM ${t} WHERE ${w} ORDER BY time ${order}, rowid ${order} LIMIT ? OFFSET ?`, [
        ...args,
        limit,
        offset,
      ]),
      this.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t} WHERE ${w}`, args),
    ]);
    return { list: list.map(clean), total: count?.n ?? 0 };
  }

  async latest(series: string, org: number, keys: readonly string[]): Promise<SeriesRow[]> {
    const table = this.table(series);
    const t = `"tm_${table.schema.name}"`;
    const rows = await Promise.all(
      keys.map((k) =>
        this.get<SeriesRow>(`SELECT ${this.selectCols(table)} FROM ${t} WHERE org = ? AND "${table.schema.key}" = ? ORDER BY time DESC, rowid DESC LIMIT 1`, [
          org,
          k,
        ]),
      ),
    );
    return rows.filter((r): r is SeriesRow => r !== undefined).map(clean);
  }

  /** Deletes rows older than the retention window. */
  async prune(now = Date.now()): Promise<void> {
    const days = this.opts.retentionDays ?? 0;
    if (days <= 0) return;
    for (const t of this.tables.values()) await this.run(`DELETE FROM "tm_${t.schema.name}" WHERE time < ?`, [now - days * 86400000]);
  }

  async ping(): Promise<boolean> {
    return this.get('SELECT 1 AS ok').then(
      () => true,
      () => false,
    );
  }

  async close(): Promise<void> {
    for (const t of this.tables.values()) {
      await new Promise<void>((r) => t.insertMany.finalize(() => r()));
      await new Promise<void>((r) => t.insertOne.finalize(() => r()));
    }
    await new Promise<void>((resolve, reject) => this.db.close((err) => (err ? reject(err) : resolve())));
  }

  private table(series: string): Table {
    const t = this.tables.get(series);
    if (!t) throw new Error(`telemetry: unknown series "${series}"`);
    return t;
  }

  private selectCols(t: Table): string {
    return t.cols.map((c) => `"${c}"`).join(', ');
  }

  private run(sql: string, args: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => this.db.run(sql, args, (err) => (err ? reject(err) : resolve())));
  }

  private stmt(s: sqlite3.Statement, args: unknown[]): Promise<void> {
    return new Promise((resolve, reject) => s.run(args, (err) => (err ? reject(err) : resolve())));
  }

  private get<T>(sql: string, args: unknown[] = []): Promise<T | undefined> {
    return new Promise((resolve, reject) => this.db.get(sql, args, (err, row) => (err ? reject(err) : resolve(row as T | undefined))));
  }

  private all<T>(sql: string, args: unknown[] = []): Promise<T[]> {
    return new Promise((resolve, reject) => this.db.all(sql, args, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));
  }
}

function params(cols: readonly string[], rows: readonly SeriesRow[], start: number, n: number): unknown[] {
  const out = new Array(cols.length * n);
  let k = 0;
  for (let i = start; i < start + n; i++) {
    const r = rows[i];
    for (let c = 0; c < cols.length; c++) out[k++] = r[cols[c]] ?? null;
  }
  return out;
}

/** Rows come back with every column; drop the nulls so both engines answer alike. */
function clean(r: SeriesRow): SeriesRow {
  for (const k of Object.keys(r)) if (r[k] === null) delete r[k];
  return r;
}
