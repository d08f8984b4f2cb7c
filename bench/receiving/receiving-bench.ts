/**
 * Receiving benchmark (issue 17 "Figures to report"): a receipt made from a released ship
 * order of 5,000 carriers (its shipped lines copied as `expected`) is received through the
 * real call `/receipt-detail/scan` (HTTP, guard, the document flow's scan, the line step
 * `receive` with plugins/shipping's hooks, the header moving new → receiving on the first
 * batch, roll-ups), in batches:
 *
 *   1. by serial: 50 calls of `{ receiptId, keys: [100 serials] }`;
 *   2. by container: 50 calls of `{ receiptId, containers: [containerNo] }`, 100 carriers each.
 *
 * Each batch is timed alone (p50, p95, worst per batch, and the whole 5,000), next to a raw-SQL
 * floor run batch for batch on another receipt of the same shape, in one transaction per batch:
 *
 *   floor      the lines found by their serials (or container), the receipt lines' status
 *              UPDATE, the carriers' UPDATE (into the warehouse, cycle count + 1), the in/out
 *              INSERT of 100 rows — the writes a receive has to make;
 *   full floor the floor plus what the call also writes: the header lock, the carrier-log
 *              INSERT, the ship order's lines marked received, the receipt's five roll-ups and
 *              the order's three counts, each as one statement.
 *
 * Prints the SQL statements one call ran (set-based: a few dozen per batch, not per carrier).
 *
 *   node bench/receiving/run.mjs [--carriers=5000] [--batch=100] [--rounds=3] [--only=serials|containers] [--show=1]
 *   TEST_MYSQL_URL=mysql://… node bench/receiving/run.mjs      (MariaDB/MySQL instead of SQLite)
 */
import { cpus, loadavg } from 'node:os';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { startTestServer } from '../../server/test/support/test-server';
import { callOk, countStatements, sqlNames } from '../lib/sql';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const CARRIERS = arg('carriers', 5000);
const BATCH = arg('batch', 100);
const ROUNDS = arg('rounds', 3);
const CHUNK = 1000;
/** --show=1: every statement of an early and a late serial batch with its time (the rest of a call is JavaScript) */
const SHOW = arg('show', 0) !== 0;
/** --only=serials or --only=containers: one way of receiving */
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1];
const KINDS = (['serials', 'containers'] as const).filter((k) => !ONLY || k === ONLY);
// enum values (metadata/enums.json)
const ORDER_NEW = 1;
const LINE_PENDING = 10;
const LINE_SHIPPED = 20;
const LINE_RECEIVED = 30;
const RLINE_EXPECTED = 10;
const RLINE_RECEIVED = 20;
const RLINE_MISSING = 30;
const RLINE_EXTRA = 40;
const IN_WAREHOUSE = 10;
const IN_TRANSIT = 20;
const ABNORMAL = 40;
const INBOUND = 10;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const median = (xs: number[]) => pct(xs, 50);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;

interface Trip {
  orderId: number;
  orderNo: string;
  receiptId: number;
  carriers: Array<{ id: number; sn: string }>;
  containers: string[];
}

async function main() {
  const ts = await startTestServer({ plugins: ['shipping'], logError: () => undefined });
  const { sequelize } = ts.server.db;
  const models = ts.server.db.models;
  const { q, table, col, cols } = sqlNames(sequelize, models);
  const org = ts.orgA;
  try {
    const ok = (path: string, body: unknown) => callOk(ts.a, path, body);
    const project = (await ok('/project/create', { name: 'Bench' })).id;
    const code = (await ok('/carrier-code/create', { code: 'CC-R', name: 'Bench box', projectId: project, type: 10, available: true })).id;
    const shanghai = (await ok('/warehouse/create', { code: 'SH', name: 'Shanghai Hub' })).id;
    const osaka = (await ok('/warehouse/create', { code: 'OS', name: 'Osaka' })).id;
    await ok('/route/create', { routeName: 'SH-OS', fromWarehouseId: shanghai, toWarehouseId: osaka, transportType: 20, transportTime: 600 });

    // A trip: carriers in Shanghai and a new order of them by bulk insert, then released and a
    // receipt made from it through the calls (fixtures: not what is measured, timed for reference).
    let n = 0;
    const fixture = { release: [] as number[], receipt: [] as number[] };
    const trip = async (count: number): Promise<Trip> => {
      const prefix = `T${n}-`;
      const now = new Date();
      const rows = Array.from({ length: count }, (_, i) => ({
        orgId: org,
        sn: `${prefix}${String(i).padStart(6, '0')}`,
        carrierCodeId: code,
        status: 10,
        limits: 0,
        loadingStatus: 0,
        transportStatus: IN_WAREHOUSE,
        warehouseId: shanghai,
        cycleCount: 0,
        createdAt: now,
        updatedAt: now,
      }));
      for (let i = 0; i < rows.length; i += CHUNK) await models.carrier.bulkCreate(rows.slice(i, i + CHUNK), { hooks: false, validate: false });
      const carriers = (await models.carrier.findAll({
        attributes: ['id', 'sn'],
        where: { sn: { [Op.like]: `${prefix}%` } },
        order: [['id', 'ASC']],
        raw: true,
      })) as unknown as Array<{ id: number; sn: string }>;
      const orderNo = `RB-${n++}`;
      const header = await models['ship-order'].create({
        orgId: org,
        orderNo,
        type: 2,
        status: ORDER_NEW,
        shipperWarehouseId: shanghai,
        receiverWarehouseId: osaka,
        transportType: 20,
        totalAmount: carriers.length,
      });
      const orderId = Number(header.get('id'));
      const containerOf = (i: number) => `${prefix}C${String(Math.floor(i / BATCH)).padStart(3, '0')}`;
      const lines = carriers.map((c, i) => ({
        orgId: org,
        shipOrderId: orderId,
        carrierId: c.id,
        carrierSn: c.sn,
        carrierCodeId: code,
        containerNo: containerOf(i),
        status: LINE_PENDING,
        createdAt: now,
        updatedAt: now,
      }));
      for (let i = 0; i < lines.length; i += CHUNK) await models['ship-order-detail'].bulkCreate(lines.slice(i, i + CHUNK), { hooks: false, validate: false });
      let t = performance.now();
      await ok('/ship-order/release', { id: orderId });
      fixture.release.push(performance.now() - t);
      t = performance.now();
      const receipt = await ok('/receipt/create', { shipOrderId: orderId });
      fixture.receipt.push(performance.now() - t);
      if (receipt.expectedAmount !== count) throw new Error(`receipt expects ${receipt.expectedAmount}, not ${count}`);
      return { orderId, orderNo, receiptId: receipt.id, carriers, containers: [...new Set(carriers.map((_, i) => containerOf(i)))] };
    };

    const rl = (a: string) => col('receipt-detail', a);
    const sl = (a: string) => col('ship-order-detail', a);
    const ca = (a: string) => col('carrier', a);
    const INOUT = [
      'orgId',
      'carrierId',
      'sn',
      'name',
      'carrierCodeId',
      'direction',
      'warehouseId',
      'confirmTime',
      'shipOrderNo',
      'containerNo',
      'confirmedBy',
      'confirmedTime',
      'createdAt',
      'updatedAt',
    ];
    const LOG = ['orgId', 'carrierId', 'event', 'oldValue', 'newValue', 'operator', 'time', 'remark', 'createdAt', 'updatedAt'];
    const insertRows = async (t: Transaction, resource: string, attrs: string[], rows: unknown[][]) => {
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        await sequelize.query(
          `INSERT INTO ${table(resource)} (${cols(resource, attrs)}) VALUES ${chunk.map((r) => `(${r.map(() => '?').join(', ')})`).join(', ')}`,
          { transaction: t, replacements: chunk.flat() },
        );
      }
    };
    const forUpdate = ts.server.db.dialect === 'sqlite' ? '' : ' FOR UPDATE';

    /** one batch by hand: by serials (`keys`) or by one container; `full` adds the rest of what the call writes */
    const rawBatch = (tr: Trip, by: { keys?: string[]; container?: string }, full: boolean) =>
      sequelize.transaction(async (t: Transaction) => {
        const now = new Date();
        const opts = { transaction: t };
        if (full)
          await sequelize.query(`SELECT * FROM ${table('receipt')} WHERE ${col('receipt', 'orgId')} = ? AND ${q('id')} = ?${forUpdate}`, {
            ...opts,
            replacements: [org, tr.receiptId],
            type: QueryTypes.SELECT,
          });
        const which = by.keys ? `${rl('carrierSn')} IN (${by.keys.map(() => '?').join(', ')})` : `${rl('containerNo')} = ?`;
        const lines = await sequelize.query<{ id: number; c: number; sn: string; n: string | null }>(
          `SELECT ${q('id')} AS id, ${rl('carrierId')} AS c, ${rl('carrierSn')} AS sn, ${rl('containerNo')} AS n FROM ${table('receipt-detail')} WHERE ${rl('orgId')} = ? AND ${rl('receiptId')} = ? AND ${which} AND ${rl('status')} IN (${RLINE_EXPECTED}, ${RLINE_MISSING})${forUpdate}`,
          { ...opts, replacements: [org, tr.receiptId, ...(by.keys ?? [by.container])], type: QueryTypes.SELECT },
        );
        const ids = lines.map((l) => Number(l.c));
        await sequelize.query(
          `UPDATE ${table('receipt-detail')} SET ${rl('status')} = ${RLINE_RECEIVED}, ${rl('receivedBy')} = 'bench', ${rl('receivedTime')} = ?, ${rl('updatedAt')} = ? WHERE ${rl('orgId')} = ? AND ${q('id')} IN (${lines.map((l) => l.id).join(',')}) AND ${rl('status')} IN (${RLINE_EXPECTED}, ${RLINE_MISSING})`,
          { ...opts, replacements: [now, now, org] },
        );
        await sequelize.query(
          `UPDATE ${table('carrier')} SET ${ca('warehouseId')} = ?, ${ca('transportStatus')} = ${IN_WAREHOUSE}, ${ca('inboundWarehouseId')} = ?, ${ca('inboundTime')} = ?, ${ca('cycleCount')} = COALESCE(${ca('cycleCount')}, 0) + 1, ${ca('updatedAt')} = ? WHERE ${ca('orgId')} = ? AND ${q('id')} IN (${ids.join(',')}) AND ${ca('transportStatus')} IN (${IN_TRANSIT}, ${ABNORMAL})`,
          { ...opts, replacements: [osaka, osaka, now, now, org] },
        );
        await insertRows(
          t,
          'carrier-inout',
          INOUT,
          lines.map((l) => [org, l.c, l.sn, null, code, INBOUND, osaka, now, tr.orderNo, l.n, 10, now, now, now]),
        );
        if (!full) return;
        await insertRows(
          t,
          'carrier-log',
          LOG,
          lines.map((l) => [org, l.c, 70, String(IN_TRANSIT), String(IN_WAREHOUSE), 'bench', now, `Received with ship order ${tr.orderNo}`, now, now]),
        );
        await sequelize.query(
          `UPDATE ${table('ship-order-detail')} SET ${sl('status')} = ${LINE_RECEIVED}, ${sl('receiptBy')} = 'bench', ${sl('receiptTime')} = ?, ${sl('arrivalConfirmedBy')} = 10, ${sl('arrivalConfirmedTime')} = ?, ${sl('updatedAt')} = ? WHERE ${sl('orgId')} = ? AND ${sl('shipOrderId')} = ? AND ${sl('carrierId')} IN (${ids.join(',')}) AND ${sl('status')} = ${LINE_SHIPPED}`,
          { ...opts, replacements: [now, now, now, org, tr.orderId] },
        );
        const count = (resource: string, fk: string, id: number, status?: number) =>
          `(SELECT COUNT(*) FROM ${table(resource)} WHERE ${col(resource, 'orgId')} = ${Number(org)} AND ${col(resource, fk)} = ${id}${status === undefined ? '' : ` AND ${col(resource, 'status')} = ${status}`})`;
        const r = (a: string) => col('receipt', a);
        await sequelize.query(
          `UPDATE ${table('receipt')} SET ${r('totalAmount')} = ${count('receipt-detail', 'receiptId', tr.receiptId)}, ${r('expectedAmount')} = ${count('receipt-detail', 'receiptId', tr.receiptId, RLINE_EXPECTED)}, ${r('receivedAmount')} = ${count('receipt-detail', 'receiptId', tr.receiptId, RLINE_RECEIVED)}, ${r('missingAmount')} = ${count('receipt-detail', 'receiptId', tr.receiptId, RLINE_MISSING)}, ${r('extraAmount')} = ${count('receipt-detail', 'receiptId', tr.receiptId, RLINE_EXTRA)}, ${r('updatedAt')} = ? WHERE ${r('orgId')} = ? AND ${q('id')} = ?`,
          { ...opts, replacements: [now, org, tr.receiptId] },
        );
        const o = (a: string) => col('ship-order', a);
        await sequelize.query(
          `UPDATE ${table('ship-order')} SET ${o('receivedAmount')} = ${count('ship-order-detail', 'shipOrderId', tr.orderId, LINE_RECEIVED)}, ${o('missingAmount')} = ${count('ship-order-detail', 'shipOrderId', tr.orderId, 40)}, ${o('extraAmount')} = ${count('ship-order-detail', 'shipOrderId', tr.orderId, 50)} WHERE ${o('orgId')} = ? AND ${q('id')} = ?`,
          { ...opts, replacements: [org, tr.orderId] },
        );
      });

    const scan = async (tr: Trip, body: Record<string, unknown>, expect: number) => {
      const r = await ok('/receipt-detail/scan', { receiptId: tr.receiptId, ...body });
      if (r.accepted.length !== expect || r.refused.length)
        throw new Error(`scan accepted ${r.accepted.length} of ${expect}, refused ${JSON.stringify(r.refused.slice(0, 3))}`);
      return r;
    };
    const received = async (tr: Trip) => {
      const lines = await models['receipt-detail'].count({ where: { receiptId: tr.receiptId, status: RLINE_RECEIVED } });
      const here = await models.carrier.count({ where: { id: { [Op.in]: tr.carriers.map((c) => c.id) }, warehouseId: osaka, transportStatus: IN_WAREHOUSE } });
      const inout = await models['carrier-inout'].count({ where: { shipOrderNo: tr.orderNo, direction: INBOUND } });
      if (lines !== tr.carriers.length || here !== tr.carriers.length || inout !== tr.carriers.length)
        throw new Error(`${tr.orderNo}: ${lines} lines received, ${here} carriers in Osaka, ${inout} inbound rows (expected ${tr.carriers.length} each)`);
    };

    /** the batches of one way of receiving: call on trip a, floor on b, full floor on c, batch for batch */
    let shown = 0;
    const measure = async (kind: 'serials' | 'containers', a: Trip, b: Trip, c: Trip) => {
      const out = { call: [] as number[], floor: [] as number[], full: [] as number[], statements: [] as number[] };
      const batches = Math.ceil(a.carriers.length / BATCH);
      for (let i = 0; i < batches; i++) {
        const keys = (tr: Trip) => tr.carriers.slice(i * BATCH, (i + 1) * BATCH).map((x) => x.sn);
        const body = kind === 'serials' ? { keys: keys(a) } : { containers: [a.containers[i]] };
        // --show: one early and one late batch, each statement with its time (the rest is JavaScript)
        const show = SHOW && kind === 'serials' && a.carriers.length === CARRIERS && shown < 2 && (i === 1 || i === batches - 5);
        const logging = sequelize as unknown as { options: { logging: unknown; benchmark: boolean } };
        let sqlMs = 0;
        let t = performance.now();
        const { statements } = await countStatements(sequelize, () => {
          if (show) {
            shown++;
            logging.options.benchmark = true;
            logging.options.logging = (sql: string, took: number) => {
              sqlMs += took;
              console.log(
                `  ${String(took).padStart(4)} ms  ${sql
                  .replace(/^Executing \([^)]*\): /, '')
                  .replace(/\s+/g, ' ')
                  .slice(0, 160)}`,
              );
            };
          }
          return scan(a, body, keys(a).length);
        });
        if (show) {
          logging.options.benchmark = false;
          console.log(`  batch ${i + 1}: call ${(performance.now() - t).toFixed(1)} ms, of which SQL ${sqlMs} ms`);
        }
        out.call.push(performance.now() - t);
        out.statements.push(statements);
        const by = (tr: Trip) => (kind === 'serials' ? { keys: keys(tr) } : { container: tr.containers[i] });
        t = performance.now();
        await rawBatch(b, by(b), false);
        out.floor.push(performance.now() - t);
        t = performance.now();
        await rawBatch(c, by(c), true);
        out.full.push(performance.now() - t);
      }
      for (const tr of [a, b, c]) await received(tr);
      return out;
    };

    console.log(
      `receiving bench on ${ts.server.db.dialect}, ${cpus().length} CPUs, load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}; ${CARRIERS.toLocaleString('en')} carriers per receipt in batches of ${BATCH}, ${ROUNDS} round(s) after a warm-up`,
    );
    // warm-up: two batches each way on a small trip
    {
      const small = async () => trip(2 * BATCH);
      await measure('serials', await small(), await small(), await small());
      await measure('containers', await small(), await small(), await small());
      fixture.release.length = 0;
      fixture.receipt.length = 0;
    }
    const results: Record<'serials' | 'containers', Array<Awaited<ReturnType<typeof measure>>>> = { serials: [], containers: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of KINDS) results[kind].push(await measure(kind, await trip(CARRIERS), await trip(CARRIERS), await trip(CARRIERS)));
    }

    const label = {
      serials: `by serial: /receipt-detail/scan { receiptId, keys: [${BATCH} serials] } × ${Math.ceil(CARRIERS / BATCH)}`,
      containers: `by container: /receipt-detail/scan { receiptId, containers: [one of ${BATCH} carriers] } × ${Math.ceil(CARRIERS / BATCH)}`,
    };
    for (const kind of KINDS) {
      console.log(`\nreceiving ${CARRIERS.toLocaleString('en')} carriers ${label[kind]}`);
      const line = (name: string, xs: number[]) =>
        `${name} p50 ${ms(median(xs))}  p95 ${ms(pct(xs, 95))}  worst ${ms(Math.max(...xs))}  all ${(sum(xs) / 1000).toFixed(2).padStart(6)} s`;
      results[kind].forEach((r, i) => {
        console.log(`  round ${i + 1}`);
        console.log(`    ${line('HTTP call  ', r.call)}   ${median(r.statements)} SQL statements per call (first ${r.statements[0]})`);
        console.log(`    ${line('floor      ', r.floor)}`);
        console.log(`    ${line('full floor ', r.full)}`);
        console.log(
          `    ratio p50: ${(median(r.call) / median(r.floor)).toFixed(2)}× floor, ${(median(r.call) / median(r.full)).toFixed(2)}× full floor; p95: ${(pct(r.call, 95) / pct(r.floor, 95)).toFixed(2)}× floor, ${(pct(r.call, 95) / pct(r.full, 95)).toFixed(2)}× full floor`,
        );
      });
      if (results[kind].length > 1) {
        const over = (f: (r: (typeof results)[typeof kind][number]) => number) => results[kind].map(f);
        // the median of the rounds (of two: their mean)
        const mid = (xs: number[]) => {
          const s = [...xs].sort((x, y) => x - y);
          return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        };
        const mm = (xs: number[]) => `min ${ms(Math.min(...xs))} median ${ms(mid(xs))}`;
        console.log(`  over ${results[kind].length} rounds: call p50 ${mm(over((r) => median(r.call)))}; call p95 ${mm(over((r) => pct(r.call, 95)))}`);
        console.log(`                  floor p50 ${mm(over((r) => median(r.floor)))}; floor p95 ${mm(over((r) => pct(r.floor, 95)))}`);
        console.log(`             full floor p50 ${mm(over((r) => median(r.full)))}; full p95 ${mm(over((r) => pct(r.full, 95)))}`);
      }
    }
    console.log(
      `\nfixtures (not measured above): /ship-order/release of ${CARRIERS.toLocaleString('en')} median ${ms(median(fixture.release))}; /receipt/create copying ${CARRIERS.toLocaleString('en')} shipped lines median ${ms(median(fixture.receipt))}`,
    );
  } finally {
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
