/**
 * Documents and transitions benchmark (issue 11 "Speed"): two timings, each next to the same
 * work written by hand in raw SQL on the same database, connection pool and driver.
 *
 *   1. A transition that moves a 5,000-line document: `/carrier-bind/release` with a step hook
 *      (ctx.transitions.on) that does what a shipping release does to its lines, set-based
 *      through the transaction-bound repository: read the lines' carriers, set those carriers
 *      in transit, write one carrier-log row per carrier, mark the lines. Raw floor: the status
 *      UPDATE … WHERE status IN (from), the same SELECT, UPDATE … WHERE id IN (…), INSERTs of
 *      1,000 rows and UPDATE, in one transaction.
 *   2. The atomic save of a 2,000-line document: `/carrier-bind/save` (header, generated
 *      number, lines validated, refs checked, roll-up). Raw floor: the sequence increment,
 *      header INSERT, the ref check, line INSERTs of 1,000 rows, SUM and header UPDATE, and
 *      reading the line ids back, in one transaction.
 *
 * Both go through real HTTP (the whole call: JSON, guard, envelope). Prints the median of
 * --rounds (default 5) of each, their ratio (target ≤ 3×) and absolute time (target < 1 s),
 * and how many SQL statements the server ran for each call (set-based: not one per line).
 *
 *   3. Deleting a 5,000-line document: `/carrier-bind/delete`, the lines cascading set-based.
 *      Raw floor: the header read, DELETE of the lines by header, DELETE of the header. Plus
 *      one round of the same delete line by line (a delete hook listening), for comparison.
 *
 *   node bench/documents/run.mjs [--lines=5000] [--saveLines=2000] [--deleteLines=5000] [--perLine=0] [--rounds=5]
 *   TEST_MYSQL_URL=mysql://… node bench/documents/run.mjs    (on MariaDB/MySQL instead of SQLite)
 */
import { cpus, loadavg } from 'node:os';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { startTestServer } from '../../server/test/support/test-server';
import { callOk, countStatements, sqlNames } from '../lib/sql';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const LINES = arg('lines', 5000);
const SAVE_LINES = arg('saveLines', 2000);
const ROUNDS = arg('rounds', 5);
const DELETE_LINES = arg('deleteLines', 5000);
/** --perLine=0 skips the one round of the per-line delete (slow by design) */
const PER_LINE = arg('perLine', 1) !== 0;
const CHUNK = 1000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1).padStart(8)} ms`;

async function main() {
  // a large body: 2,000 lines of JSON
  process.env.BODY_LIMIT ??= '10mb';
  const ts = await startTestServer({ logError: () => undefined, config: { bodyLimit: '10mb' } });
  const { sequelize } = ts.server.db;
  const models = ts.server.db.models;
  const { q, table, col } = sqlNames(sequelize, models);
  try {
    const ok = (path: string, body: unknown) => callOk(ts.a, path, body);
    const project = (await ok('/project/create', { name: 'Bench' })).id;
    const code = (await ok('/carrier-code/create', { code: 'CC-B', name: 'Bench code', projectId: project, type: 10 })).id;
    // carriers by bulk insert (the fixture is not what is measured)
    const carriers = async (count: number, prefix: string): Promise<number[]> => {
      const now = new Date();
      const rows = Array.from({ length: count }, (_, i) => ({
        orgId: ts.orgA,
        sn: `${prefix}${String(i).padStart(6, '0')}`,
        carrierCodeId: code,
        status: 10,
        limits: 0,
        loadingStatus: 0,
        transportStatus: 10,
        cycleCount: 0,
        createdAt: now,
        updatedAt: now,
      }));
      for (let i = 0; i < rows.length; i += CHUNK) await models.carrier.bulkCreate(rows.slice(i, i + CHUNK), { hooks: false, validate: false });
      const found = (await models.carrier.findAll({
        attributes: ['id'],
        where: { sn: { [Op.like]: `${prefix}%` } },
        order: [['id', 'ASC']],
        raw: true,
      })) as unknown as Array<{ id: number }>;
      return found.map((r) => r.id);
    };
    /** a new (status 10) document with `lines` lines over the given carriers, written directly */
    let docNo = 0;
    const document = async (lineCarriers: number[]): Promise<number> => {
      const main = (await carriers(1, `M${docNo}-`))[0];
      const now = new Date();
      const header = await models['carrier-bind'].create({
        orgId: ts.orgA,
        bindNo: `BENCH-${docNo++}`,
        carrierId: main,
        status: 10,
        totalAmount: lineCarriers.length,
      });
      const id = Number(header.get('id'));
      const rows = lineCarriers.map((carrierId) => ({ orgId: ts.orgA, carrierBindId: id, carrierId, qty: 1, createdAt: now, updatedAt: now }));
      for (let i = 0; i < rows.length; i += CHUNK) await models['carrier-bind-detail'].bulkCreate(rows.slice(i, i + CHUNK), { hooks: false, validate: false });
      return id;
    };

    // What a release does to its lines, set-based, as a module would write it.
    ts.server.transitions.on('carrier-bind', 'release', async (e) => {
      const lines = await e.repo('carrier-bind-detail').rows({ carrierBindId: e.ids }, { attributes: ['carrierId'] });
      const ids = lines.map((l) => Number(l.carrierId));
      const now = new Date();
      await e.repo('carrier').updateWhere({ transportStatus: 20, outboundTime: now }, { id: { [Op.in]: ids } });
      await e.repo('carrier-log').insertMany(ids.map((carrierId) => ({ carrierId, event: 70, oldValue: '10', newValue: '20', operator: 'bench', time: now })));
      await e.repo('carrier-bind-detail').updateWhere({ remark: 'released' }, { carrierBindId: e.ids });
    });

    // The same work by hand: one transaction of raw statements.
    const rawRelease = async (id: number) =>
      sequelize.transaction(async (t: Transaction) => {
        const now = new Date();
        const opts = { transaction: t };
        await sequelize.query(
          `SELECT ${q('id')}, ${col('carrier-bind', 'status')} FROM ${table('carrier-bind')} WHERE ${col('carrier-bind', 'orgId')} = ? AND ${q('id')} = ?`,
          { ...opts, replacements: [ts.orgA, id], type: QueryTypes.SELECT },
        );
        await sequelize.query(
          `UPDATE ${table('carrier-bind')} SET ${col('carrier-bind', 'status')} = 20, ${col('carrier-bind', 'updatedAt')} = ? WHERE ${col('carrier-bind', 'orgId')} = ? AND ${q('id')} = ? AND ${col('carrier-bind', 'status')} IN (10)`,
          { ...opts, replacements: [now, ts.orgA, id] },
        );
        const lines = await sequelize.query<{ c: number }>(
          `SELECT ${col('carrier-bind-detail', 'carrierId')} AS c FROM ${table('carrier-bind-detail')} WHERE ${col('carrier-bind-detail', 'orgId')} = ? AND ${col('carrier-bind-detail', 'carrierBindId')} = ?`,
          { ...opts, replacements: [ts.orgA, id], type: QueryTypes.SELECT },
        );
        const ids = lines.map((l) => Number(l.c));
        await sequelize.query(
          `UPDATE ${table('carrier')} SET ${col('carrier', 'transportStatus')} = 20, ${col('carrier', 'outboundTime')} = ?, ${col('carrier', 'updatedAt')} = ? WHERE ${col('carrier', 'orgId')} = ? AND ${q('id')} IN (${ids.join(',')})`,
          { ...opts, replacements: [now, now, ts.orgA] },
        );
        const logCols = ['orgId', 'carrierId', 'event', 'oldValue', 'newValue', 'operator', 'time', 'createdAt', 'updatedAt']
          .map((a) => col('carrier-log', a))
          .join(', ');
        for (let i = 0; i < ids.length; i += CHUNK) {
          const chunk = ids.slice(i, i + CHUNK);
          await sequelize.query(`INSERT INTO ${table('carrier-log')} (${logCols}) VALUES ${chunk.map(() => '(?, ?, 70, ?, ?, ?, ?, ?, ?)').join(', ')}`, {
            ...opts,
            replacements: chunk.flatMap((c) => [ts.orgA, c, '10', '20', 'bench', now, now, now]),
          });
        }
        await sequelize.query(
          `UPDATE ${table('carrier-bind-detail')} SET ${col('carrier-bind-detail', 'remark')} = 'released', ${col('carrier-bind-detail', 'updatedAt')} = ? WHERE ${col('carrier-bind-detail', 'orgId')} = ? AND ${col('carrier-bind-detail', 'carrierBindId')} = ?`,
          { ...opts, replacements: [now, ts.orgA, id] },
        );
      });

    const rawSave = async (main: number, lineCarriers: number[]) =>
      sequelize.transaction(async (t: Transaction) => {
        const now = new Date();
        const opts = { transaction: t };
        // the sequence increment (SQLite: one upsert; MySQL: the row exists after the first save)
        if (ts.server.db.dialect === 'sqlite') {
          await sequelize.query(
            `INSERT INTO sys_document_sequence (org_id, resource, scope, value) VALUES (?, 'bench', 'x', 1) ON CONFLICT (org_id, resource, scope) DO UPDATE SET value = value + 1`,
            { ...opts, replacements: [ts.orgA] },
          );
        } else {
          await sequelize.query(`INSERT IGNORE INTO sys_document_sequence (org_id, resource, scope, value) VALUES (?, 'bench', 'x', 0)`, {
            replacements: [ts.orgA],
          });
          await sequelize.query(`UPDATE sys_document_sequence SET value = value + 1 WHERE org_id = ? AND resource = 'bench' AND scope = 'x'`, {
            ...opts,
            replacements: [ts.orgA],
          });
        }
        const [seq] = await sequelize.query<{ value: number }>(
          `SELECT value FROM sys_document_sequence WHERE org_id = ? AND resource = 'bench' AND scope = 'x'`,
          { ...opts, replacements: [ts.orgA], type: QueryTypes.SELECT },
        );
        const hcols = ['orgId', 'bindNo', 'carrierId', 'status', 'totalAmount', 'createdAt', 'updatedAt'].map((a) => col('carrier-bind', a)).join(', ');
        await sequelize.query(`INSERT INTO ${table('carrier-bind')} (${hcols}) VALUES (?, ?, ?, 10, 0, ?, ?)`, {
          ...opts,
          replacements: [ts.orgA, `RAW-${seq.value}`, main, now, now],
        });
        const [header] = await sequelize.query<{ id: number }>(
          `SELECT ${q('id')} AS id FROM ${table('carrier-bind')} WHERE ${col('carrier-bind', 'orgId')} = ? AND ${col('carrier-bind', 'bindNo')} = ?`,
          { ...opts, replacements: [ts.orgA, `RAW-${seq.value}`], type: QueryTypes.SELECT },
        );
        await sequelize.query(
          `SELECT COUNT(*) AS n FROM ${table('carrier')} WHERE ${q('id')} IN (${lineCarriers.join(',')}) AND ${col('carrier', 'orgId')} = ?`,
          { ...opts, replacements: [ts.orgA], type: QueryTypes.SELECT },
        );
        const lcols = ['orgId', 'carrierBindId', 'carrierId', 'qty', 'createdAt', 'updatedAt'].map((a) => col('carrier-bind-detail', a)).join(', ');
        for (let i = 0; i < lineCarriers.length; i += CHUNK) {
          const chunk = lineCarriers.slice(i, i + CHUNK);
          await sequelize.query(`INSERT INTO ${table('carrier-bind-detail')} (${lcols}) VALUES ${chunk.map(() => '(?, ?, ?, 1, ?, ?)').join(', ')}`, {
            ...opts,
            replacements: chunk.flatMap((c) => [ts.orgA, header.id, c, now, now]),
          });
        }
        const [sum] = await sequelize.query<{ s: number }>(
          `SELECT SUM(${col('carrier-bind-detail', 'qty')}) AS s FROM ${table('carrier-bind-detail')} WHERE ${col('carrier-bind-detail', 'orgId')} = ? AND ${col('carrier-bind-detail', 'carrierBindId')} = ?`,
          { ...opts, replacements: [ts.orgA, header.id], type: QueryTypes.SELECT },
        );
        await sequelize.query(`UPDATE ${table('carrier-bind')} SET ${col('carrier-bind', 'totalAmount')} = ? WHERE ${q('id')} = ?`, {
          ...opts,
          replacements: [Number(sum.s), header.id],
        });
        await sequelize.query(
          `SELECT ${q('id')} FROM ${table('carrier-bind-detail')} WHERE ${col('carrier-bind-detail', 'orgId')} = ? AND ${col('carrier-bind-detail', 'carrierBindId')} = ? ORDER BY ${q('id')}`,
          { ...opts, replacements: [ts.orgA, header.id], type: QueryTypes.SELECT },
        );
      });

    const counted = <T>(fn: () => Promise<T>) => countStatements(sequelize, fn);

    console.log(`documents bench on ${ts.server.db.dialect}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}; medians of ${ROUNDS} rounds`);

    // 1. transition over LINES lines: each round a fresh document for the call and one for the floor
    const apiRelease: number[] = [];
    const rawReleaseMs: number[] = [];
    let releaseStatements = 0;
    for (let r = 0; r <= ROUNDS; r++) {
      const a = await document(await carriers(LINES, `RA${r}-`));
      const b = await document(await carriers(LINES, `RB${r}-`));
      let t = performance.now();
      const { statements } = await counted(() => ok('/carrier-bind/release', { id: a }));
      const api = performance.now() - t;
      t = performance.now();
      await rawRelease(b);
      const raw = performance.now() - t;
      if (r === 0) continue; // warm-up round
      apiRelease.push(api);
      rawReleaseMs.push(raw);
      releaseStatements = statements;
    }
    const moved = await models.carrier.count({ where: { transportStatus: 20 } });
    if (moved !== LINES * (ROUNDS + 1) * 2) throw new Error(`expected ${LINES * (ROUNDS + 1) * 2} carriers moved, found ${moved}`);

    // 2. atomic save of SAVE_LINES lines (new document each round, the same carriers)
    const saveCarriers = await carriers(SAVE_LINES, 'S-');
    const apiSave: number[] = [];
    const rawSaveMs: number[] = [];
    let saveStatements = 0;
    const body = (main: number) => ({ carrierId: main, remark: 'bench', lines: saveCarriers.map((carrierId) => ({ carrierId, qty: 1 })) });
    for (let r = 0; r <= ROUNDS; r++) {
      const [mainA, mainB] = await carriers(2, `SM${r}-`);
      let t = performance.now();
      const { value, statements } = await counted(() => ok('/carrier-bind/save', body(mainA)));
      const api = performance.now() - t;
      if (value.totalAmount !== SAVE_LINES || value.lines['carrier-bind-detail'].total !== SAVE_LINES) throw new Error('save answered the wrong document');
      t = performance.now();
      await rawSave(mainB, saveCarriers);
      const raw = performance.now() - t;
      if (r === 0) continue;
      apiSave.push(api);
      rawSaveMs.push(raw);
      saveStatements = statements;
    }

    // 3. deleting a DELETE_LINES-line document: its lines cascade set-based (no hook acts on a
    // single line); once more with a listening hook, the per-line path, for comparison
    const rawDelete = async (id: number) =>
      sequelize.transaction(async (t: Transaction) => {
        const opts = { transaction: t };
        await sequelize.query(`SELECT ${q('id')} FROM ${table('carrier-bind')} WHERE ${col('carrier-bind', 'orgId')} = ? AND ${q('id')} = ?`, {
          ...opts,
          replacements: [ts.orgA, id],
          type: QueryTypes.SELECT,
        });
        await sequelize.query(
          `DELETE FROM ${table('carrier-bind-detail')} WHERE ${col('carrier-bind-detail', 'orgId')} = ? AND ${col('carrier-bind-detail', 'carrierBindId')} = ?`,
          { ...opts, replacements: [ts.orgA, id] },
        );
        await sequelize.query(`DELETE FROM ${table('carrier-bind')} WHERE ${col('carrier-bind', 'orgId')} = ? AND ${q('id')} = ?`, {
          ...opts,
          replacements: [ts.orgA, id],
        });
      });
    const deleteCarriers = await carriers(DELETE_LINES, 'D-');
    const apiDelete: number[] = [];
    const rawDeleteMs: number[] = [];
    let deleteStatements = 0;
    for (let r = 0; r <= ROUNDS; r++) {
      const a = await document(deleteCarriers);
      const b = await document(deleteCarriers);
      let t = performance.now();
      const { statements } = await counted(() => ok('/carrier-bind/delete', { id: a }));
      const api = performance.now() - t;
      t = performance.now();
      await rawDelete(b);
      const raw = performance.now() - t;
      if (r === 0) continue;
      apiDelete.push(api);
      rawDeleteMs.push(raw);
      deleteStatements = statements;
    }
    const left = await models['carrier-bind-detail'].count({ where: { carrierId: { [Op.in]: deleteCarriers.slice(0, 10) } } });
    if (left) throw new Error(`${left} lines left after the deletes`);
    let perLine: { ms: number; statements: number } | null = null;
    if (PER_LINE) {
      const off = ts.server.hooks.before('delete', 'carrier-bind-detail', () => undefined);
      try {
        const a = await document(deleteCarriers);
        const t = performance.now();
        const { statements } = await counted(() => ok('/carrier-bind/delete', { id: a }));
        perLine = { ms: performance.now() - t, statements };
      } finally {
        off();
      }
    }

    // Medians and bests: on a shared machine the best of the rounds is the least disturbed one.
    const row = (label: string, api: number[], raw: number[], statements: number) => {
      console.log(`\n${label}`);
      console.log(
        `  HTTP call (whole)   median ${ms(median(api))}   best ${ms(Math.min(...api))}   worst ${ms(Math.max(...api))}   ${statements} SQL statements`,
      );
      console.log(`  raw SQL, same work  median ${ms(median(raw))}   best ${ms(Math.min(...raw))}   worst ${ms(Math.max(...raw))}`);
      console.log(
        `  ratio: medians ${(median(api) / median(raw)).toFixed(2)}×, bests ${(Math.min(...api) / Math.min(...raw)).toFixed(2)}× (target ≤ 3×); call ${median(api) < 1000 ? 'under' : 'OVER'} 1 s`,
      );
    };
    row(
      `transition /carrier-bind/release of a ${LINES.toLocaleString('en')}-line document (status + ${LINES.toLocaleString('en')} carriers moved, ${LINES.toLocaleString('en')} log rows, lines marked)`,
      apiRelease,
      rawReleaseMs,
      releaseStatements,
    );
    row(
      `atomic save /carrier-bind/save of a ${SAVE_LINES.toLocaleString('en')}-line document (number, header, lines, refs, roll-up, line ids answered)`,
      apiSave,
      rawSaveMs,
      saveStatements,
    );
    row(
      `delete /carrier-bind/delete of a ${DELETE_LINES.toLocaleString('en')}-line document (lines cascade set-based: no hook acts on a single line)`,
      apiDelete,
      rawDeleteMs,
      deleteStatements,
    );
    if (perLine)
      console.log(`  the same delete line by line (a delete hook listening on the lines): ${ms(perLine.ms)}, ${perLine.statements} SQL statements (one round)`);
  } finally {
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
