/**
 * Shipping-list import benchmark (issue 12 "Speed": 10,000 rows under 5 s): a generated file of
 * N rows (order number, carrier serial, delivery note, container) uploaded through the real
 * `/ship-order-detail/import` onto one new ship order, with plugins/shipping's per-row reasons
 * and the document engine's set-based line checks and roll-up. Before it, the parse floor: the
 * same file read and checked by the engine's dry run (lookups included, nothing written).
 *
 *   npx tsx bench/shipping/import-bench.ts [--rows=10000]
 */
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import ExcelJS from 'exceljs';
import { Op } from 'sequelize';
import { startTestServer } from '../../server/test/support/test-server';
import { callOk } from '../lib/sql';
import { tempDataDir } from '../../server/test/import-fixtures';

const ROWS = Number(process.argv.find((a) => a.startsWith('--rows='))?.split('=')[1] ?? 10000);

async function main() {
  const dataDir = tempDataDir();
  const ts = await startTestServer({ config: { dataDir }, plugins: ['shipping'], logError: (m, e) => console.error(m, (e as Error)?.message ?? '') });
  const models = ts.server.db.models;
  try {
    const ok = (path: string, body: unknown) => callOk(ts.a, path, body);
    const project = (await ok('/project/create', { name: 'Bench' })).id;
    const code = (await ok('/carrier-code/create', { code: 'CC-B', name: 'Box', projectId: project, type: 10, available: true })).id;
    const shanghai = (await ok('/warehouse/create', { code: 'SH', name: 'Shanghai Hub' })).id;
    const osaka = (await ok('/warehouse/create', { code: 'OS', name: 'Osaka' })).id;
    // fixtures by bulk insert (not measured): N carriers standing in Shanghai
    const now = new Date();
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      orgId: ts.orgA,
      sn: `SL${String(i).padStart(7, '0')}`,
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
    for (let i = 0; i < rows.length; i += 1000) await models.carrier.bulkCreate(rows.slice(i, i + 1000), { hooks: false, validate: false });
    const order = await ok('/ship-order/save', { type: 2, shipperWarehouseId: shanghai, receiverWarehouseId: osaka, lines: [] });

    const file = join(dataDir, 'shipping-list.xlsx');
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
    const ws = wb.addWorksheet('import');
    ws.addRow(['shipOrderId', 'carrierId', 'deliveryNo', 'msn', 'containerNo', 'remark']).commit();
    for (let i = 0; i < ROWS; i++) ws.addRow([order.orderNo, rows[i].sn, `DN-${Math.floor(i / 500)}`, null, `CONT-${Math.floor(i / 100)}`, null]).commit();
    ws.commit();
    await wb.commit();

    const floorStart = performance.now();
    const floor = await ts.server.imports.dryRun('ship-order-detail', ts.server.systemContext(ts.orgA), file);
    const floorSeconds = (performance.now() - floorStart) / 1000;

    const started = performance.now();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await readFile(file))]), 'shipping-list.xlsx');
    const res = await fetch(`${ts.url}/api/ship-order-detail/import`, { method: 'POST', headers: { Token: ts.a.token, OrgId: String(ts.orgA) }, body: form });
    const up = (await res.json()) as { code: number; message: string; data: { importId: number } };
    if (up.code !== 0) throw new Error(`upload refused: ${up.message}`);
    await ts.server.imports.idle();
    const seconds = (performance.now() - started) / 1000;
    const status = (await ts.a.call('/ship-order-detail/import/status', { importId: up.data.importId })).body.data as any;
    const header = await ok('/ship-order', { id: order.id });
    const lines = await models['ship-order-detail'].count({ where: { shipOrderId: order.id, carrierCodeId: { [Op.ne]: null } } });
    console.log(
      `shipping-list import: ${ROWS} rows onto one ship order; load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log(`  parse floor (dry run: read + check, no writes): ${floorSeconds.toFixed(2)} s (${floor.success} rows passed)`);
    console.log(
      `  import (upload → finished): ${seconds.toFixed(2)} s = ${Math.round(ROWS / seconds)} rows/s; ratio to floor ${(seconds / floorSeconds).toFixed(2)}`,
    );
    console.log(
      `  success ${status.successVolume}, failed ${status.failedVolume}${status.importErrors?.length ? `, first error ${JSON.stringify(status.importErrors[0])}` : ''}; order total ${header.totalAmount}, lines with carrier code ${lines}`,
    );
    console.log(`  target < 5 s: ${seconds < 5 && status.successVolume === ROWS && header.totalAmount === ROWS ? 'met' : 'missed'}`);
  } finally {
    await ts.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
