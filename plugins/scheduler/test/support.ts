/** Helpers shared by the scheduler tests: polling, answers, reading an .eml's xlsx attachment. */
import ExcelJS from 'exceljs';
import type { Caller } from '../../../server/test/support/test-server';

export async function ok<T = any>(caller: Caller, p: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(p, body);
  if (got.body.code !== 0) throw new Error(`${p}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

/** Polls fn until it returns a truthy value (or throws after timeoutMs). */
export async function until<T>(fn: () => Promise<T> | T, timeoutMs = 8000, what = 'condition'): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The first xlsx attachment of a raw RFC 822 message, as rows of cell values. */
export async function xlsxAttachment(eml: string): Promise<{ filename: string; rows: unknown[][]; sheets: string[] }> {
  const m =
    /Content-Type:\s+application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet;[^]*?filename="?([^"\n]+\.xlsx)"?[^]*?\n\n([A-Za-z0-9+/=\n]+)/.exec(
      eml.replace(/\r\n/g, '\n'),
    );
  if (!m) throw new Error('no xlsx attachment in the message');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(m[2].replace(/\n/g, ''), 'base64') as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { filename: m[1], rows, sheets: wb.worksheets.map((w) => w.name) };
}
