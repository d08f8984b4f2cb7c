/**
 * Maintenance speed (issue 20 "Speed"), each next to its raw-SQL floor on the same database:
 *
 *   1. `/carrier-asset-maintenance-record/top` over --records (default 200,000) repair records
 *      spread over a year and 20,000 carriers: the period's month and the whole year. Floor: the
 *      two GROUP BY counts it runs (carrier, carrier code).
 *   2. `/carrier-asset-maintenance-record/report` (per month, the year). Floor: the GROUP BY
 *      month with COUNT/SUM.
 *   3. `/carrier-asset/refresh` for --carriers (default 100,000) carriers of an asset-managed
 *      code, from none (every asset made, with a log row each) and again (nothing to change).
 *      Floor: one INSERT … SELECT of the same rows into the same table (without the log).
 *
 *   npx tsx plugins/maintenance/test/bench/maintenance-bench.ts [--records=200000] [--carriers=100000]
 */
import { QueryTypes } from 'sequelize';
import { startTestServer } from '../../../../server/test/support/test-server';

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const RECORDS = arg('records', 200_000);
const CARRIERS = arg('carriers', 100_000);
const CHUNK = 1000;
const DAY = 86_400_000;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const out = await fn();
  return [performance.now() - t0, out];
}
const ms = (x: number) => `${x.toFixed(0).padStart(7)} ms`;

async function main() {
  const ts = await startTestServer({ plugins: ['maintenance'], logError: () => undefined });
  const { sequelize } = ts.server.db;
  // eslint-disable-next-line rti/no-raw-models -- bench fixture: rows inserted in bulk, not what is measured
  const models = ts.server.db.models;
  const ok = async (path: string, body: unknown) => {
    const r = await ts.a.call(path, body);
    if (r.body.code !== 0) throw new Error(`${path}: ${r.body.message}`);
    return r.body.data;
  };
  try {
    const project = (await ok('/project/create', { name: 'Bench' })).id;
    const codes: number[] = [];
    for (let i = 0; i < 20; i++)
      codes.push((await ok('/carrier-code/create', { code: `RK-${i}`, name: `Rack ${i}`, projectId: project, type: 10, maintainCycle: 90 })).id);
    const now = Date.now();
    const stamp = new Date();
    // carriers by bulk insert (the fixture is not what is measured)
    let made = 0;
    while (made < CARRIERS) {
      const rows = Array.from({ length: Math.min(CHUNK * 5, CARRIERS - made) }, (_, i) => ({
        orgId: ts.orgA,
        sn: `B${String(made + i).padStart(8, '0')}`,
        carrierCodeId: codes[(made + i) % codes.length],
        status: 10,
        limits: 0,
        loadingStatus: 0,
        transportStatus: 10,
        cycleCount: 0,
        createdAt: stamp,
        updatedAt: stamp,
      }));
      // eslint-disable-next-line rti/no-raw-models -- bench fixture
      await models.carrier.bulkCreate(rows, { hooks: false, validate: false });
      made += rows.length;
    }
    const carrierIds = (await sequelize.query('SELECT id, carrier_code_id AS c FROM carrier ORDER BY id LIMIT 20000', { type: QueryTypes.SELECT })) as Array<{
      id: number;
      c: number;
    }>;
    let written = 0;
    while (written < RECORDS) {
      const rows = Array.from({ length: Math.min(CHUNK * 5, RECORDS - written) }, (_, i) => {
        const n = written + i;
        const c = carrierIds[(n * 7919) % carrierIds.length];
        return {
          orgId: ts.orgA,
          recordNo: `MRB${String(n).padStart(9, '0')}`,
          carrierId: c.id,
          carrierSn: `B${String(c.id).padStart(8, '0')}`,
          carrierCodeId: c.c,
          type: 3,
          status: 1 + (n % 5),
          breakdownDescription: 'bench',
          applyTime: new Date(now - ((n * 104729) % 365) * DAY),
          hours: 1 + (n % 4),
          cost: 50 + (n % 200),
          createdAt: stamp,
          updatedAt: stamp,
        };
      });
      // eslint-disable-next-line rti/no-raw-models -- bench fixture
      await models['carrier-asset-maintenance-record'].bulkCreate(rows, { hooks: false, validate: false });
      written += rows.length;
    }
    await sequelize.query('ANALYZE').catch(() => undefined);
    console.log(`records ${RECORDS}, carriers ${CARRIERS} (${sequelize.getDialect()})`);

    const T = 'carrier_asset_maintenance_record';
    for (const days of [31, 365]) {
      const from = new Date(now - days * DAY).toISOString();
      const to = new Date(now).toISOString();
      await ok('/carrier-asset-maintenance-record/top', { startTime: from, endTime: to });
      const [call] = await timed(() => ok('/carrier-asset-maintenance-record/top', { startTime: from, endTime: to }));
      const [floor] = await timed(async () => {
        for (const g of ['carrier_id', 'carrier_code_id']) {
          await sequelize.query(
            `SELECT ${g}, COUNT(id) AS n FROM ${T} WHERE org_id = ? AND type = 3 AND status <> 5 AND apply_time >= ? AND apply_time <= ? GROUP BY ${g}`,
            {
              replacements: [ts.orgA, new Date(from), new Date(to)],
              type: QueryTypes.SELECT,
            },
          );
        }
      });
      console.log(`top ${days} days      ${ms(call)}  floor ${ms(floor)}  ×${(call / floor).toFixed(1)}`);
    }
    {
      const from = new Date(now - 365 * DAY).toISOString();
      const to = new Date(now).toISOString();
      const [call] = await timed(() => ok('/carrier-asset-maintenance-record/report', { startTime: from, endTime: to }));
      const month = sequelize.getDialect() === 'sqlite' ? 'substr(apply_time, 1, 7)' : "DATE_FORMAT(apply_time, '%Y-%m')";
      const [floor] = await timed(() =>
        sequelize.query(
          `SELECT ${month} AS k, COUNT(id), SUM(hours), SUM(cost), SUM(CASE WHEN status = 4 THEN 1 ELSE 0 END), SUM(CASE WHEN status = 5 THEN 1 ELSE 0 END) FROM ${T} WHERE org_id = ? AND apply_time >= ? AND apply_time <= ? GROUP BY k`,
          {
            replacements: [ts.orgA, new Date(from), new Date(to)],
            type: QueryTypes.SELECT,
          },
        ),
      );
      console.log(`report 365 days    ${ms(call)}  floor ${ms(floor)}  ×${(call / floor).toFixed(1)}`);
    }
    {
      const [first, out] = await timed(() => ok('/carrier-asset/refresh', {}));
      const [again] = await timed(() => ok('/carrier-asset/refresh', {}));
      // the floor writes the same rows into the same table (its indexes included), after emptying it
      await sequelize.query('DELETE FROM carrier_asset');
      const [floor] = await timed(() =>
        sequelize.query(
          'INSERT INTO carrier_asset (org_id, carrier_id, sn, carrier_code_id, status, fixed_asset, maintenance_count, trips_at_last_maintenance, created_at, updated_at) SELECT org_id, id, sn, carrier_code_id, 1, 0, 0, 0, created_at, updated_at FROM carrier WHERE org_id = ?',
          { replacements: [ts.orgA] },
        ),
      );
      console.log(`refresh ${out.created} made ${ms(first)}  again ${ms(again)}  floor (INSERT … SELECT) ${ms(floor)}`);
    }
  } finally {
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
