/**
 * Bulk rows through the resource models, checked by the server's own write validation
 * (types, required, lengths, ranges, patterns, enums, compare rules) exactly as a create call
 * would check them — the demo never holds a row the API would refuse. Refs and uniqueness are
 * right by construction; the seeds test re-saves a sample through the API to prove it.
 *
 * Idempotent: rows are matched by a natural key against what the organisation already has,
 * and only the missing ones are inserted.
 */
import type { Model, ModelStatic, Sequelize, Transaction, WhereOptions } from 'sequelize';
import type { Metadata, ResourceDef } from '@rti/metadata';
import { checkCompareRules, validateWrite } from '@rti/server/resources/validate';
import { hashPassword } from '@rti/server/resources/password';
import { JSON_TYPES } from '@rti/server/db/columns';

type Row = Record<string, unknown>;
/** Rows per INSERT: large enough to be fast, small enough for every driver's limits. */
const CHUNK = 500;

export class BulkWriter {
  /** rows inserted so far */
  created = 0;
  private current: Transaction | null = null;
  /** password → its hash, started early (hashing is slow on purpose) */
  private readonly hashes = new Map<string, Promise<string>>();

  constructor(
    private readonly sequelize: Sequelize,
    private readonly metadata: Metadata,
  ) {}

  get transaction(): Transaction {
    if (!this.current) throw new Error('seed: write outside BulkWriter.step()');
    return this.current;
  }

  /**
   * One step of the seed in its own transaction: one disk sync for thousands of rows, yet
   * short enough that the server's other writers (SQLite has one write lock) are not starved.
   */
  async step<T>(fn: () => Promise<T>): Promise<T> {
    if (this.current) return fn();
    return this.sequelize.transaction(async (t) => {
      this.current = t;
      try {
        return await fn();
      } finally {
        this.current = null;
      }
    });
  }

  model(resource: string): ModelStatic<Model> {
    const m = this.sequelize.models[resource];
    if (!m) throw new Error(`seed: resource "${resource}" is not in the metadata`);
    return m;
  }

  has(resource: string): boolean {
    return Boolean(this.metadata.resources[resource]);
  }

  private resource(name: string): ResourceDef {
    const res = this.metadata.resources[name];
    if (!res) throw new Error(`seed: resource "${name}" is not in the metadata`);
    return res;
  }

  /**
   * A create body → the row to store, or an error naming the resource, the row and the field.
   * System-maintained (readOnly) fields are allowed: the demo sets device status, battery,
   * transport status and the like that the running system would have written.
   */
  async validated(resource: string, body: Row): Promise<Row> {
    const res = this.resource(resource);
    const readOnly = new Set(res.fields.filter((f) => f.readOnly).map((f) => f.name));
    let row: Row;
    try {
      row = validateWrite(res, this.metadata.enums, body, { mode: 'create', allowReadOnly: readOnly });
      checkCompareRules(res, row);
    } catch (err) {
      const e = err as { key?: string; params?: unknown; message?: string };
      throw new Error(`seed: ${resource} ${JSON.stringify(body).slice(0, 200)} refused: ${e.key ?? e.message} ${JSON.stringify(e.params ?? {})}`);
    }
    for (const f of res.fields) {
      if (f.type !== 'password' || typeof row[f.name] !== 'string') continue;
      const plain = row[f.name] as string;
      row[f.name] = await (this.hashes.get(plain) ?? hashPassword(plain));
    }
    const orgField = res.orgScoped ? (res.orgField ?? 'orgId') : null;
    if (orgField && body[orgField] !== undefined) row[orgField] = body[orgField];
    return row;
  }

  /**
   * Starts hashing passwords in the background, `parallel` at a time: the seed's queries
   * share libuv's four worker threads with scrypt, so hashing must never take them all.
   */
  prehash(passwords: string[], parallel = 2): void {
    const queue = passwords.filter((p) => !this.hashes.has(p));
    const waiters = new Map(
      queue.map((p) => {
        let resolve!: (h: string) => void;
        let reject!: (e: unknown) => void;
        const promise = new Promise<string>((res, rej) => ((resolve = res), (reject = rej)));
        promise.catch(() => undefined); // reported where it is awaited
        this.hashes.set(p, promise);
        return [p, { resolve, reject }] as const;
      }),
    );
    const worker = async () => {
      for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
        const w = waiters.get(p)!;
        await hashPassword(p).then(w.resolve, w.reject);
      }
    };
    for (let i = 0; i < parallel; i++) void worker();
  }

  /**
   * Inserts already validated rows in chunks: the model's table, columns and column types,
   * without building a model instance per row (that alone is most of bulkCreate's time).
   * JSON fields are stored as the model's setter stores them; timestamps as bulkCreate would.
   */
  async insertRows(resource: string, rows: Row[]): Promise<void> {
    if (!rows.length) return;
    const m = this.model(resource);
    const res = this.resource(resource);
    const attrs = m.getAttributes() as Record<string, { field?: string }>;
    const json = new Set(res.fields.filter((f) => JSON_TYPES.has(f.type)).map((f) => f.name));
    const stamp = new Date();
    const records = rows.map((row) => {
      const rec: Row = {};
      for (const [k, v] of Object.entries(row)) {
        const a = attrs[k];
        if (!a || k === 'id') continue;
        rec[a.field ?? k] = json.has(k) && v !== null && v !== undefined ? JSON.stringify(v) : v;
      }
      for (const k of ['createdAt', 'updatedAt']) if (attrs[k]) rec[attrs[k].field ?? k] = stamp;
      return rec;
    });
    const qi = this.sequelize.getQueryInterface();
    const fieldMap = (m as unknown as { fieldRawAttributesMap: Parameters<typeof qi.bulkInsert>[3] }).fieldRawAttributesMap;
    for (let i = 0; i < records.length; i += CHUNK) {
      await qi.bulkInsert(m.getTableName(), records.slice(i, i + CHUNK), { transaction: this.transaction }, fieldMap);
    }
    this.created += rows.length;
  }

  /** key → id of the rows matching `where` (the natural key joined by "|"). */
  async ids(resource: string, where: Row, key: string[]): Promise<Map<string, number>> {
    const found = (await this.model(resource).findAll({
      attributes: ['id', ...key],
      where: where as WhereOptions,
      raw: true,
      transaction: this.current ?? undefined,
    })) as unknown as Row[];
    return new Map(found.map((r) => [key.map((k) => String(r[k])).join('|'), Number(r.id)]));
  }

  /**
   * Validates and inserts the bodies whose natural key (`key` fields) is not in `where` yet;
   * answers key → id for all of them, old and new, and which keys were new. Validation (and
   * hashing secrets, which is slow on purpose) happens before the write transaction.
   */
  async upsertMissing(resource: string, where: Row, key: string[], bodies: Row[]): Promise<{ ids: Map<string, number>; added: Set<string> }> {
    const keyOf = (b: Row) => key.map((k) => String(b[k])).join('|');
    const before = await this.ids(resource, where, key);
    const missing = bodies.filter((b) => !before.has(keyOf(b)));
    if (!missing.length) return { ids: before, added: new Set() };
    const rows = await Promise.all(missing.map((b) => this.validated(resource, { ...where, ...b })));
    return this.step(async () => {
      await this.insertRows(resource, rows);
      return { ids: await this.ids(resource, where, key), added: new Set(missing.map(keyOf)) };
    });
  }

  /** One row by natural key: its id, inserting it (validated) when missing. */
  async ensure(resource: string, where: Row, values: Row): Promise<number> {
    const m = this.model(resource);
    const found = await m.findOne({ where: where as WhereOptions, transaction: this.transaction });
    if (found) return Number(found.get('id'));
    const row = await this.validated(resource, { ...where, ...values });
    for (const [k, v] of Object.entries(where)) if (!(k in row)) row[k] = v;
    const created = await m.create(row, { transaction: this.transaction });
    this.created++;
    return Number(created.get('id'));
  }

  /**
   * Points `resource.column` at the `source` row whose `sourceColumn` names it (a device's
   * carrierId from the carrier's beaconId), for the organisation's rows not pointing anywhere
   * yet: one correlated UPDATE instead of one per row.
   */
  async linkBack(resource: string, column: string, source: string, sourceColumn: string, orgId: number): Promise<void> {
    const q = (s: string) => this.sequelize.getQueryInterface().quoteIdentifier(s);
    const target = this.model(resource);
    const from = this.model(source);
    const col = (m: ModelStatic<Model>, attr: string) => q(m.getAttributes()[attr]?.field ?? attr);
    const t = q(String(target.getTableName()));
    const s = q(String(from.getTableName()));
    const sub = `SELECT ${s}.${col(from, 'id')} FROM ${s} WHERE ${s}.${col(from, sourceColumn)} = ${t}.${col(target, 'id')} AND ${s}.${col(from, 'orgId')} = ${t}.${col(target, 'orgId')}`;
    await this.sequelize.query(
      `UPDATE ${t} SET ${col(target, column)} = (${sub} LIMIT 1) WHERE ${t}.${col(target, 'orgId')} = ? AND ${t}.${col(target, column)} IS NULL AND EXISTS (${sub})`,
      { replacements: [orgId], transaction: this.transaction },
    );
  }
}
