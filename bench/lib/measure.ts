/**
 * What the pool-scale benches share to time calls beside their raw-SQL floors: percentiles,
 * the machine's load line, the SQLite file opened directly (the floor runs through sqlite3, not
 * the server), the table of calls (p50, p95, floor, ratio, bound) and an export's RSS growth.
 */
import { cpus, loadavg } from 'node:os';
import sqlite3 from 'sqlite3';

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
/** milliseconds right-aligned in a column */
export const ms = (t: number, width = 6) => t.toFixed(0).padStart(width);

/** `load average 1.2 1.4 1.5 on 2 cores` */
export const loadLine = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} cores`;

/** the bench's database file opened directly (the raw-SQL floor) */
export function openSqlite(file: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
}
export const sqliteAll = <R = unknown>(d: sqlite3.Database, sql: string) =>
  new Promise<R[]>((resolve, reject) => d.all(sql, (err, rows) => (err ? reject(err) : resolve(rows as R[]))));
export const sqliteClose = (d: sqlite3.Database) => new Promise<void>((resolve) => d.close(() => resolve()));

export interface Case {
  label: string;
  path: string;
  body: Record<string, unknown>;
  /** the raw SQL the answer needs (statements run one after the other) */
  floor?: string | string[];
  /** p95 bound in ms */
  bound?: number;
}

/**
 * Times each case `calls` times (after a warm-up) and its floor `floorCalls` times, and prints
 * a line each: p50, p95, floor p50, ratio call ÷ floor, bound. `check` gets a case's last
 * answer and the floor's rows (to prove both computed the same).
 */
export async function runCases<A>(opts: {
  cases: Case[];
  calls: number;
  floorCalls: number;
  call: (c: Case) => Promise<A>;
  floor: (sql: string) => Promise<unknown[]>;
  check?: (c: Case, answer: A, floorRows: unknown[][]) => string | void;
  width?: number;
  /** unmeasured calls before the measured ones (1; 0 where one call takes minutes) */
  warmup?: number;
}): Promise<void> {
  const warm = opts.warmup ?? 1;
  const w = opts.width ?? 40;
  console.log(`${'call'.padEnd(w)} ${'p50'.padStart(6)} ${'p95'.padStart(6)} ms   floor ms  ratio  bound`);
  for (const c of opts.cases) {
    const xs: number[] = [];
    let answer!: A;
    for (let i = 1 - warm; i <= opts.calls; i++) {
      const t = performance.now();
      answer = await opts.call(c);
      if (i > 0) xs.push(performance.now() - t);
    }
    let fl = NaN;
    let floorRows: unknown[][] = [];
    if (c.floor) {
      const fs: number[] = [];
      for (let i = 1 - warm; i <= opts.floorCalls; i++) {
        const t = performance.now();
        floorRows = [];
        for (const sql of ([] as string[]).concat(c.floor)) floorRows.push(await opts.floor(sql));
        if (i > 0) fs.push(performance.now() - t);
      }
      fl = percentile(fs, 50);
    }
    const p50 = percentile(xs, 50);
    const p95 = percentile(xs, 95);
    const note = c.floor && opts.check ? opts.check(c, answer, floorRows) : undefined;
    console.log(
      `${c.label.padEnd(w)} ${ms(p50)} ${ms(p95)}      ${Number.isNaN(fl) ? '     -' : ms(fl)}  ${Number.isNaN(fl) ? '    -' : (p50 / Math.max(fl, 0.1)).toFixed(1).padStart(5)}  ${c.bound ? `${p95 < c.bound ? 'ok' : 'OVER'} < ${c.bound}` : ''}${note ? `  ${note}` : ''}`,
    );
  }
}

/** Streams a response to its end while sampling RSS: bytes, seconds, RSS before and at its peak. */
export async function streamedRss(res: Promise<Response>): Promise<{ bytes: number; seconds: number; rss0: number; peak: number }> {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t = performance.now();
  let bytes = 0;
  try {
    for await (const chunk of (await res).body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  } finally {
    clearInterval(timer);
  }
  return { bytes, seconds: (performance.now() - t) / 1000, rss0, peak };
}
