/** One-sheet xlsx workbooks in memory (report attachments are small: one row per subject). */
import ExcelJS from 'exceljs';

export interface Column {
  header: string;
  key: string;
  width?: number;
}

export async function workbook(sheet: string, columns: Column[], rows: Array<Record<string, unknown>>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'RTI Console';
  // Excel allows 31 characters and no []:*?/\ in a sheet name
  const ws = wb.addWorksheet(sheet.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1');
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A time as "YYYY-MM-DD HH:mm" in a zone (sheet cells read the same for every reader). */
export function formatTime(v: unknown, timezone: string): string {
  if (v === null || v === undefined || v === '') return '';
  const d = v instanceof Date ? v : new Date(typeof v === 'number' ? v : String(v));
  if (Number.isNaN(d.getTime())) return '';
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** A zone's offset from UTC in minutes (east positive) at a time: daylight saving included. */
export function zoneOffset(timezone: string): (t: number) => number {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' });
  return (t) => {
    const name = f.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  };
}

/** The calendar day of a time in a zone, "YYYY-MM-DD". */
export function dayOf(t: number | Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(t);
}
