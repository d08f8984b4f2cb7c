/**
 * Helpers for the import tests: xlsx files built with exceljs, multipart uploads, status
 * polling, and the SPEC §8 reason codes per column (metadata `import.codes`) overlaid on the
 * loaded metadata where a resource does not declare them yet.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { loadMetadata, type ImportDef, type Metadata } from '@rti/metadata';
import type { Caller, TestServer } from './support/test-server';

/** The reason codes of SPEC §8 per import column (what the resources' metadata declares). */
export const IMPORT_CODES: Record<string, NonNullable<ImportDef['codes']>> = {
  carrier: {
    sn: { required: 120, duplicate: 20, exists: 30 },
    carrierCodeId: { required: 10, notFound: 10 },
    limits: { invalid: 40 },
    beaconId: { notFound: 70 },
    gpsId: { notFound: 90 },
    status: { invalid: 110 },
    startTime: { invalid: 50 },
    endTime: { invalid: 50 },
    remark: { invalid: 60 },
  },
  'device-beacon': {
    sn: { duplicate: 20, exists: 30 },
    mac: { duplicate: 40, exists: 50 },
    deviceModelId: { required: 10, notFound: 10 },
    startTime: { invalid: 60 },
    endTime: { invalid: 60 },
    remark: { invalid: 70 },
  },
  'device-gps': {
    sn: { required: 500, duplicate: 501, exists: 501 },
    name: { required: 502 },
    deviceModelId: { required: 503, notFound: 504 },
    useStatus: { required: 505, invalid: 506 },
    reportCycle: { required: 507 },
    sensorSampleCycle: { required: 508 },
    sensorRecordCycle: { required: 509 },
    sensorReportCycle: { required: 510 },
    locateModel: { required: 511, invalid: 512 },
    highTempThreshold: { required: 513 },
    lowTempThreshold: { required: 514 },
    shakeThreshold: { required: 515 },
    highHumidityThreshold: { required: 516 },
    lowHumidityThreshold: { required: 517 },
    remark: { invalid: 518 },
  },
  'carrier-code': {
    code: { required: 96, duplicate: 60, exists: 94 },
    remark: { invalid: 70 },
  },
  part: {
    carrierCodeId: { required: 195, notFound: 97 },
    code: { required: 192 },
    qty: { required: 193 },
    parentCode: { required: 194 },
    remark: { invalid: 70 },
  },
};

/** Loaded metadata with IMPORT_CODES filled in where a resource declares none. */
export function metadataWithCodes(): Metadata {
  const meta = loadMetadata();
  for (const [name, codes] of Object.entries(IMPORT_CODES)) {
    const res = meta.resources[name];
    if (res?.import && !res.import.codes) res.import = { ...res.import, codes };
  }
  return meta;
}

export const tempDataDir = () => mkdtempSync(join(tmpdir(), 'rti-data-'));

export async function xlsx(headers: string[], rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(headers);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Multipart upload of one file as the caller. */
export async function upload(ts: TestServer, caller: Caller, path: string, bytes: Buffer, fileName: string, language = 'en-US') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  const res = await fetch(`${ts.url}/api${path}`, {
    method: 'POST',
    headers: { Token: caller.token, OrgId: String(caller.orgId), Language: language },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as { code: number; message: string; data: any } };
}

export interface ImportResult {
  importId: number;
  status: number;
  successVolume: number;
  failedVolume: number;
  processedVolume: number;
  totalVolume: number | null;
  importErrors: Array<{ row: number; code: number | null; reason: string; column?: string; value?: string }>;
  message: string | null;
}

/** Uploads, waits for the background job, answers its final status. */
export async function importFile(ts: TestServer, caller: Caller, resource: string, bytes: Buffer, language = 'en-US'): Promise<ImportResult> {
  const up = await upload(ts, caller, `/${resource}/import`, bytes, `${resource}.xlsx`, language);
  if (up.body.code !== 0) throw new Error(`upload refused: ${up.body.message}`);
  await ts.server.imports.idle();
  const status = await caller.call(`/${resource}/import/status`, { importId: up.body.data.importId }, { language });
  if (status.body.code !== 0) throw new Error(`status refused: ${status.body.message}`);
  return status.body.data as ImportResult;
}

/** The reason code reported for each sheet row. */
export const codesByRow = (r: ImportResult) => Object.fromEntries(r.importErrors.map((e) => [e.row, e.code]));
