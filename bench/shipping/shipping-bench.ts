/**
 * Shipping benchmark (issue 12 "Speed"): releasing and receiving a ship order of 5,000
 * carriers through the real calls (`/ship-order/release`, `/ship-order/receive`, HTTP, guard,
 * step, plugins/shipping hooks), each next to the raw-SQL floor of the same statements on the
 * same database, pool and driver, in one transaction:
 *
 *   release: order SELECT, conditional status UPDATE, lines SELECT, carriers SELECT, the
 *            conditional carrier UPDATE, in/out and carrier-log INSERTs of 1,000 rows, lines
 *            UPDATE, route SELECT, due-time UPDATE;
 *   receive: status UPDATE, lines SELECT, carriers SELECT, carrier UPDATE (cycle count + 1,
 *            turnover days per row), in/out and log INSERTs, lines UPDATE, three counts and the
 *            header UPDATE.
 *
 * Prints medians of --rounds (default 3), the ratio (target ≤ 3×), the absolute time (target
 * < 1 s) and the SQL statements the server ran per call (set-based: a few, not one per carrier).
 *
 *   node bench/shipping/run.mjs [--carriers=5000] [--rounds=3]
 *   TEST_MYSQL_URL=mysql://… node bench/shipping/run.mjs      (MariaDB/MySQL instead of SQLite)
 */
import { cpus, loadavg } from 'node:os';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { startTestServer } from '../../server/test/support/test-server';
import { callOk, countStatements, sqlNames } from '../lib/sql';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const CARRIERS = arg('carriers', 5000);
const ROUNDS = arg('rounds', 3);
const CHUNK = 1000;
const IN_TRANSIT = 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1).padStart(8)} ms`;

async function main() {
  const ts = await startTestServer({ plugins: ['shipping'], logError: () => undefined });
  const { sequelize } = ts.server.db;
  const models = ts.server.db.models;
  const { q, table, col, cols } = sqlNames(sequelize, models);
  const org = ts.orgA;
  try {
    const ok = (path: string, body: unknown) => callOk(ts.a, path, body);
    const project = (await ok('/project/create', { name: 'Bench' })).id;
    const code = (await ok('/carrier-code/create', { code: 'CC-B', name: 'Bench box', projectId: project, type: 10, available: true })).id;
    const shanghai = (await ok('/warehouse/create', { code: 'SH', name: 'Shanghai Hub' })).id;
    const osaka = (await ok('/warehouse/create', { code: 'OS', name: 'Osaka' })).id;
    await ok('/route/create', { routeName: 'SH-OS', fromWarehouseId: shanghai, toWarehouseId: osaka, transportType: 20, transportTime: 600 });

    // fixtures by bulk insert (not what is measured): carriers in Shanghai, a new order with their lines
    const carriers = async (prefix: string): Promise<Array<{ id: number; sn: string }>> => {
      const now = new Date();
      const rows = Array.from({ length: CARRIERS }, (_, i) => ({
        orgId: org,
        sn: `${prefix}${String(i).padStart(6, '0')}`,
        carrierCodeId: code,
        status: 10,
        limits: 0,
        loadingStatus: 0,
        transportStatus: 10,
        warehouseId: shanghai,
        cycleCount: 0,
        createdAt: now,
        updatedAt: now,
      }));
      for (let i = 0; i < rows.length; i += CHUNK) await models.carrier.bulkCreate(rows.slice(i, i + CHUNK), { hooks: false, validate: false });
      return (await models.carrier.findAll({
        attributes: ['id', 'sn'],
        where: { sn: { [Op.like]: `${prefix}%` } },
        order: [['id', 'ASC']],
        raw: true,
      })) as unknown as Array<{ id: number; sn: string }>;
    };
    let n = 0;
    const order = async (prefix: string): Promise<{ id: number; orderNo: string }> => {
      const cs = await carriers(prefix);
      const orderNo = `BENCH-${n++}`;
      const header = await models['ship-order'].create({
        orgId: org,
        orderNo,
        type: 2,
        status: 1,
        shipperWarehouseId: shanghai,
        receiverWarehouseId: osaka,
        totalAmount: cs.length,
      });
      const id = Number(header.get('id'));
      const now = new Date();
      const rows = cs.map((c) => ({
        orgId: org,
        shipOrderId: id,
        carrierId: c.id,
        carrierSn: c.sn,
        carrierCodeId: code,
        status: 10,
        createdAt: now,
        updatedAt: now,
      }));
      for (let i = 0; i < rows.length; i += CHUNK) await models['ship-order-detail'].bulkCreate(rows.slice(i, i + CHUNK), { hooks: false, validate: false });
      return { id, orderNo };
    };

    const insertRows = async (t: Transaction, resource: string, attrs: string[], rows: unknown[][]) => {
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        await sequelize.query(
          `INSERT INTO ${table(resource)} (${cols(resource, attrs)}) VALUES ${chunk.map((r) => `(${r.map(() => '?').join(', ')})`).join(', ')}`,
          { transaction: t, replacements: chunk.flat() },
        );
      }
    };
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
      'createdAt',
      'updatedAt',
    ];
    const LOG = ['orgId', 'carrierId', 'event', 'oldValue', 'newValue', 'operator', 'time', 'remark', 'createdAt', 'updatedAt'];

    const rawRelease = (o: { id: number; orderNo: string }) =>
      sequelize.transaction(async (t) => {
        const now = new Date();
        const opts = { transaction: t };
        await sequelize.query(`SELECT * FROM ${table('ship-order')} WHERE ${col('ship-order', 'orgId')} = ? AND ${q('id')} = ?`, {
          ...opts,
          replacements: [org, o.id],
          type: QueryTypes.SELECT,
        });
        await sequelize.query(
          `UPDATE ${table('ship-order')} SET ${col('ship-order', 'status')} = 2, ${col('ship-order', 'atd')} = ?, ${col('ship-order', 'updatedAt')} = ? WHERE ${col('ship-order', 'orgId')} = ? AND ${q('id')} = ? AND ${col('ship-order', 'status')} IN (1)`,
          { ...opts, replacements: [now, now, org, o.id] },
        );
        const lines = await sequelize.query<{ id: number; c: number; n: string | null }>(
          `SELECT ${q('id')} AS id, ${col('ship-order-detail', 'carrierId')} AS c, ${col('ship-order-detail', 'containerNo')} AS n FROM ${table('ship-order-detail')} WHERE ${col('ship-order-detail', 'orgId')} = ? AND ${col('ship-order-detail', 'shipOrderId')} = ? AND ${col('ship-order-detail', 'status')} = 10`,
          { ...opts, replacements: [org, o.id], type: QueryTypes.SELECT },
        );
        const ids = lines.map((l) => Number(l.c));
        const cs = await sequelize.query<{ id: number; sn: string; name: string | null; code: number }>(
          `SELECT ${q('id')} AS id, ${col('carrier', 'sn')} AS sn, ${col('carrier', 'name')} AS name, ${col('carrier', 'carrierCodeId')} AS code, ${col('carrier', 'warehouseId')}, ${col('carrier', 'transportStatus')} FROM ${table('carrier')} WHERE ${col('carrier', 'orgId')} = ? AND ${q('id')} IN (${ids.join(',')})`,
          { ...opts, replacements: [org], type: QueryTypes.SELECT },
        );
        await sequelize.query(
          `UPDATE ${table('carrier')} SET ${col('carrier', 'warehouseId')} = NULL, ${col('carrier', 'transportStatus')} = 20, ${col('carrier', 'outboundWarehouseId')} = ?, ${col('carrier', 'outboundTime')} = ?, ${col('carrier', 'updatedAt')} = ? WHERE ${col('carrier', 'orgId')} = ? AND ${q('id')} IN (${ids.join(',')}) AND ${col('carrier', 'warehouseId')} = ? AND ${col('carrier', 'transportStatus')} IN (0, 10, 30)`,
          { ...opts, replacements: [shanghai, now, now, org, shanghai] },
        );
        await insertRows(
          t,
          'carrier-inout',
          INOUT,
          cs.map((c) => [org, c.id, c.sn, c.name, c.code, 20, shanghai, now, o.orderNo, null, now, now]),
        );
        await insertRows(
          t,
          'carrier-log',
          LOG,
          cs.map((c) => [org, c.id, 70, '10', '20', 'bench', now, o.orderNo, now, now]),
        );
        await sequelize.query(
          `UPDATE ${table('ship-order-detail')} SET ${col('ship-order-detail', 'status')} = 20, ${col('ship-order-detail', 'deliveryBy')} = 'bench', ${col('ship-order-detail', 'deliveryTime')} = ?, ${col('ship-order-detail', 'updatedAt')} = ? WHERE ${col('ship-order-detail', 'orgId')} = ? AND ${q('id')} IN (${lines.map((l) => l.id).join(',')})`,
          { ...opts, replacements: [now, now, org] },
        );
        await sequelize.query(
          `SELECT ${q('id')}, ${col('route', 'transportTime')} FROM ${table('route')} WHERE ${col('route', 'orgId')} = ? AND ${col('route', 'fromWarehouseId')} = ? AND ${col('route', 'toWarehouseId')} = ? LIMIT 1`,
          { ...opts, replacements: [org, shanghai, osaka], type: QueryTypes.SELECT },
        );
        await sequelize.query(
          `UPDATE ${table('ship-order')} SET ${col('ship-order', 'dueAt')} = ? WHERE ${col('ship-order', 'orgId')} = ? AND ${q('id')} = ?`,
          { ...opts, replacements: [new Date(now.getTime() + 600 * 60_000), org, o.id] },
        );
      });

    const rawReceive = (o: { id: number; orderNo: string }) =>
      sequelize.transaction(async (t) => {
        const now = new Date();
        const opts = { transaction: t };
        await sequelize.query(
          `UPDATE ${table('ship-order')} SET ${col('ship-order', 'status')} = 4, ${col('ship-order', 'tor')} = ?, ${col('ship-order', 'updatedAt')} = ? WHERE ${col('ship-order', 'orgId')} = ? AND ${q('id')} = ? AND ${col('ship-order', 'status')} IN (2, 3)`,
          { ...opts, replacements: [now, now, org, o.id] },
        );
        const lines = await sequelize.query<{ c: number }>(
          `SELECT ${col('ship-order-detail', 'carrierId')} AS c FROM ${table('ship-order-detail')} WHERE ${col('ship-order-detail', 'orgId')} = ? AND ${col('ship-order-detail', 'shipOrderId')} = ?`,
          { ...opts, replacements: [org, o.id], type: QueryTypes.SELECT },
        );
        const ids = lines.map((l) => Number(l.c));
        const cs = await sequelize.query<{ id: number; sn: string; name: string | null; code: number }>(
          `SELECT ${q('id')} AS id, ${col('carrier', 'sn')} AS sn, ${col('carrier', 'name')} AS name, ${col('carrier', 'carrierCodeId')} AS code FROM ${table('carrier')} WHERE ${col('carrier', 'orgId')} = ? AND ${q('id')} IN (${ids.join(',')})`,
          { ...opts, replacements: [org], type: QueryTypes.SELECT },
        );
        await sequelize.query(
          `UPDATE ${table('carrier')} SET ${col('carrier', 'warehouseId')} = ?, ${col('carrier', 'transportStatus')} = 10, ${col('carrier', 'inboundWarehouseId')} = ?, ${col('carrier', 'inboundTime')} = ?, ${col('carrier', 'cycleCount')} = COALESCE(${col('carrier', 'cycleCount')}, 0) + 1, ${col('carrier', 'updatedAt')} = ? WHERE ${col('carrier', 'orgId')} = ? AND ${q('id')} IN (${ids.join(',')}) AND ${col('carrier', 'transportStatus')} IN (20, 40)`,
          { ...opts, replacements: [osaka, osaka, now, now, org] },
        );
        await insertRows(
          t,
          'carrier-inout',
          INOUT,
          cs.map((c) => [org, c.id, c.sn, c.name, c.code, 10, osaka, now, o.orderNo, null, now, now]),
        );
        await insertRows(
          t,
          'carrier-log',
          LOG,
          cs.map((c) => [org, c.id, 70, '20', '10', 'bench', now, o.orderNo, now, now]),
        );
        await sequelize.query(
          `UPDATE ${table('ship-order-detail')} SET ${col('ship-order-detail', 'status')} = 30, ${col('ship-order-detail', 'receiptBy')} = 'bench', ${col('ship-order-detail', 'receiptTime')} = ?, ${col('ship-order-detail', 'updatedAt')} = ? WHERE ${col('ship-order-detail', 'orgId')} = ? AND ${col('ship-order-detail', 'shipOrderId')} = ?`,
          { ...opts, replacements: [now, now, org, o.id] },
        );
        for (const s of [30, 40, 50])
          await sequelize.query(
            `SELECT COUNT(*) AS n FROM ${table('ship-order-detail')} WHERE ${col('ship-order-detail', 'orgId')} = ? AND ${col('ship-order-detail', 'shipOrderId')} = ? AND ${col('ship-order-detail', 'status')} = ?`,
            { ...opts, replacements: [org, o.id, s], type: QueryTypes.SELECT },
          );
        await sequelize.query(
          `UPDATE ${table('ship-order')} SET ${col('ship-order', 'receivedAmount')} = ? WHERE ${col('ship-order', 'orgId')} = ? AND ${q('id')} = ?`,
          { ...opts, replacements: [ids.length, org, o.id] },
        );
      });

    const counted = <T>(fn: () => Promise<T>) => countStatements(sequelize, fn);

    console.log(
      `shipping bench on ${ts.server.db.dialect}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}; ${CARRIERS.toLocaleString('en')} carriers per order, medians of ${ROUNDS} rounds (+1 warm-up)`,
    );
    const times = { release: [] as number[], releaseRaw: [] as number[], receive: [] as number[], receiveRaw: [] as number[] };
    const statements = { release: 0, receive: 0 };
    for (let r = 0; r <= ROUNDS; r++) {
      const a = await order(`A${r}-`);
      const b = await order(`B${r}-`);
      let t = performance.now();
      const rel = await counted(() => ok('/ship-order/release', { id: a.id }));
      const release = performance.now() - t;
      t = performance.now();
      await rawRelease(b);
      const releaseRaw = performance.now() - t;
      const inTransit = await models.carrier.count({ where: { transportStatus: IN_TRANSIT, sn: { [Op.like]: `A${r}-%` } } });
      if (inTransit !== CARRIERS) throw new Error(`release moved ${inTransit} carriers, expected ${CARRIERS}`);
      t = performance.now();
      const rec = await counted(() => ok('/ship-order/receive', { id: a.id }));
      const receive = performance.now() - t;
      t = performance.now();
      await rawReceive(b);
      const receiveRaw = performance.now() - t;
      if (rec.value.receivedAmount !== CARRIERS) throw new Error(`receive answered ${rec.value.receivedAmount} received`);
      const inOsaka = await models.carrier.count({ where: { warehouseId: osaka, sn: { [Op.like]: `A${r}-%` } } });
      if (inOsaka !== CARRIERS) throw new Error(`receive moved ${inOsaka} carriers, expected ${CARRIERS}`);
      if (r === 0) continue; // warm-up
      times.release.push(release);
      times.releaseRaw.push(releaseRaw);
      times.receive.push(receive);
      times.receiveRaw.push(receiveRaw);
      statements.release = rel.statements;
      statements.receive = rec.statements;
    }
    const row = (label: string, api: number[], raw: number[], n: number) => {
      console.log(`\n${label}`);
      console.log(`  HTTP call (whole)   median ${ms(median(api))}   best ${ms(Math.min(...api))}   ${n} SQL statements`);
      console.log(`  raw SQL, same work  median ${ms(median(raw))}   best ${ms(Math.min(...raw))}`);
      console.log(
        `  ratio: medians ${(median(api) / median(raw)).toFixed(2)}×, bests ${(Math.min(...api) / Math.min(...raw)).toFixed(2)}× (target ≤ 3×); call ${median(api) < 1000 ? 'under' : 'OVER'} 1 s`,
      );
    };
    row(
      `release /ship-order/release (${CARRIERS.toLocaleString('en')} carriers out of Shanghai: status, carriers in transit, in/out rows, logs, lines, due time)`,
      times.release,
      times.releaseRaw,
      statements.release,
    );
    row(
      `receive /ship-order/receive (${CARRIERS.toLocaleString('en')} carriers into Osaka: status, carriers in warehouse + cycle + turnover, in/out rows, logs, lines, counts)`,
      times.receive,
      times.receiveRaw,
      statements.receive,
    );
  } finally {
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
