/**
 * Imports of child rows keyed by several columns (SPEC §8 route and per-warehouse config of a
 * carrier code): refs resolved by label, a lookup picking the route by its from and to
 * warehouses, the key combination new in the file and in the system — each reason with its
 * shared-catalogue code. The `import` blocks are overlaid here as the metadata declares them
 * (docs/SERVER.md "Imports").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportDef } from '@rti/metadata';
import { metadataWithCodes, tempDataDir, upload, xlsx, type ImportResult } from './import-fixtures';
import { startTestServer, type TestServer } from './support/test-server';

const codeKey = { required: 96, notFound: 97, duplicate: 60, exists: 94 };
const warehouseColumn = { required: 100, notFound: 98 };
export const ROUTE_IMPORT = {
  key: ['carrierCodeId', 'routeId'],
  columns: ['carrierCodeId', 'from', 'to', 'remark'],
  lookups: { routeId: { from: 'fromWarehouseId', to: 'toWarehouseId' } },
  errors: 'sharedImportError',
  codes: { carrierCodeId: codeKey, from: warehouseColumn, to: warehouseColumn, remark: { invalid: 70 } },
};
export const WAREHOUSE_IMPORT = {
  key: ['carrierCodeId', 'warehouseId'],
  columns: ['carrierCodeId', 'warehouseId', 'minInventory', 'maxInventory', 'perAc', 'outboundCheckTime', 'idleCheckTime'],
  errors: 'sharedImportError',
  codes: { carrierCodeId: codeKey, warehouseId: warehouseColumn },
};

let ts: TestServer;
const ids: Record<string, number> = {};

beforeAll(async () => {
  const meta = metadataWithCodes();
  meta.resources['carrier-code-route'].import = ROUTE_IMPORT as unknown as ImportDef;
  meta.resources['carrier-code-warehouse'].import = WAREHOUSE_IMPORT as unknown as ImportDef;
  ts = await startTestServer({ metadata: meta, config: { dataDir: tempDataDir() } });
  const make = async (resource: string, body: Record<string, unknown>, caller = ts.a) => {
    const r = await caller.call(`/${resource}/create`, body);
    if (r.body.code !== 0) throw new Error(`${resource}: ${r.body.message}`);
    return r.body.data.id as number;
  };
  const project = await make('project', { name: 'P-1' });
  for (const code of ['CC-1', 'CC-2']) ids[code] = await make('carrier-code', { code, name: code, projectId: project, type: 10 });
  for (const w of ['W-A', 'W-B', 'W-C']) ids[w] = await make('warehouse', { code: w, name: w });
  ids.AB = await make('route', { routeName: 'A-B', fromWarehouseId: ids['W-A'], toWarehouseId: ids['W-B'] });
  ids.BC = await make('route', { routeName: 'B-C', fromWarehouseId: ids['W-B'], toWarehouseId: ids['W-C'] });
  await ts.a.call('/carrier-code/route/create', { carrierCodeId: ids['CC-1'], routeId: ids.BC });
  await ts.a.call('/carrier-code/warehouse/create', {
    carrierCodeId: ids['CC-1'],
    warehouseId: ids['W-B'],
    minInventory: 0,
    maxInventory: 5,
    outboundCheckTime: 10,
    idleCheckTime: 10,
  });
  // Another organisation's warehouse of the same name is not found for organisation A.
  await make('warehouse', { code: 'W-Z', name: 'W-Z' }, ts.b);
});
afterAll(() => ts?.close());

async function importAt(prefix: string, file: Buffer): Promise<ImportResult> {
  const up = await upload(ts, ts.a, `${prefix}/import`, file, 'config.xlsx');
  if (up.body.code !== 0) throw new Error(`upload refused: ${up.body.message}`);
  await ts.server.imports.idle();
  return (await ts.a.call(`${prefix}/import/status`, { importId: up.body.data.importId })).body.data;
}
const reasons = (r: ImportResult) => Object.fromEntries(r.importErrors.map((e) => [e.row, e.code ?? e.reason]));

describe('carrier code route config', () => {
  it('answers 96/97 (carrier code), 100/98 (from, to), route missing, 60 (in file), 94 (exists), 70 (remark)', async () => {
    const file = await xlsx(
      ['Carrier code', 'From', 'To', 'Remark'],
      [
        ['CC-1', 'W-A', 'W-B', 'ok'], // 2 ok
        [null, 'W-A', 'W-B'], // 3: 96
        ['CC-X', 'W-A', 'W-B'], // 4: 97
        ['CC-1', null, 'W-B'], // 5: 100
        ['CC-1', 'W-Z', 'W-B'], // 6: 98 (W-Z is organisation B's)
        ['CC-1', 'W-A', 'W-C'], // 7: no route from W-A to W-C
        ['CC-1', 'W-A', 'W-B'], // 8: 60, same as row 2
        ['CC-1', 'W-B', 'W-C'], // 9: 94, CC-1 already has B-C
        ['CC-2', 'W-A', 'W-B', 'x'.repeat(201)], // 10: 70
        ['CC-2', 'W-B', 'W-C'], // 11 ok
      ],
    );
    const result = await importAt('/carrier-code/route', file);
    const got = reasons(result);
    expect(got).toMatchObject({ 3: 96, 4: 97, 5: 100, 6: 98, 8: 60, 9: 94, 10: 70 });
    expect(String(got[7])).toMatch(/route/i);
    expect(result.successVolume).toBe(2);
    const rows = (await ts.a.call('/carrier-code/route/list', { limit: 50 })).body.data.list
      .map((r: any) => `${r.carrierCodeIdLabel}:${r.routeIdLabel}`)
      .sort();
    expect(rows).toEqual(['CC-1:A-B', 'CC-1:B-C', 'CC-2:B-C']);
  });

  it('the template names the lookup columns in the caller language, marked as required', async () => {
    const res = await ts.a.fetch('/carrier-code/route/import/template', {}, { language: 'zh-CN' });
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const headers = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual([
      `${ts.server.t('zh-CN', 'fields.carrierCode')} *`,
      `${ts.server.t('zh-CN', 'fields.from')} *`,
      `${ts.server.t('zh-CN', 'fields.to')} *`,
      ts.server.t('zh-CN', 'fields.remark'),
    ]);
  });
});

describe('carrier code warehouse config', () => {
  it('answers 96/97, 100/98, 60, 94, and the generic messages of numbers and rules', async () => {
    const file = await xlsx(
      ['carrierCodeId', 'warehouseId', 'minInventory', 'maxInventory', 'perAc', 'outboundCheckTime', 'idleCheckTime'],
      [
        ['CC-1', 'W-A', 0, 10, 1, 60, 60], // 2 ok
        [null, 'W-A', 0, 10, 1, 60, 60], // 3: 96
        ['CC-X', 'W-A', 0, 10, 1, 60, 60], // 4: 97
        ['CC-1', null, 0, 10, 1, 60, 60], // 5: 100
        ['CC-1', 'W-Z', 0, 10, 1, 60, 60], // 6: 98
        ['CC-1', 'W-A', 1, 10, 1, 60, 60], // 7: 60
        ['CC-1', 'W-B', 0, 10, 1, 60, 60], // 8: 94
        ['CC-2', 'W-B', 20, 10, 1, 60, 60], // 9: min not smaller than max
        ['CC-2', 'W-C', 0, null, 1, 60, 60], // 10: max inventory required
        ['CC-1', 'W-C', 0, 'many', 1, 60, 60], // 11: not a number
        ['CC-2', 'W-A', 0, 10, null, 30, 30], // 12 ok (a refused row still holds its key: CC-2 + W-C would answer 60)
      ],
    );
    const result = await importAt('/carrier-code/warehouse', file);
    const got = reasons(result);
    expect(got).toMatchObject({ 3: 96, 4: 97, 5: 100, 6: 98, 7: 60, 8: 94 });
    const max = ts.server.t('en-US', 'fields.maxInventory');
    expect(String(got[9])).toContain(max);
    expect(String(got[10])).toContain(max);
    expect(String(got[11])).toContain(max);
    expect(result.successVolume).toBe(2);
    expect(result.failedVolume).toBe(9);
    const rows = (await ts.a.call('/carrier-code/warehouse/list', { limit: 50 })).body.data.list
      .map((r: any) => `${r.carrierCodeIdLabel}:${r.warehouseIdLabel}`)
      .sort();
    expect(rows).toEqual(['CC-1:W-A', 'CC-1:W-B', 'CC-2:W-A']);
  });
});
