/**
 * Hostile uploads on EVERY upload and import call (issue 13): the calls are found in the
 * registry (every raw-body call: the file uploads, each resource's import, plugin calls that
 * read their own body), not listed by hand. Each gets truncated and malformed multipart
 * bodies, NUL, control and bidi characters in file names, wrong magic bytes, an oversized
 * body, image decompression bombs, workbook bombs, a body that stalls and a client that goes
 * away. The server runs as a child process; the suite fails on any 5xx, any code 10000, any
 * unanswered request, any change of the server's process, any temporary file left in the
 * data folder or the child's TMPDIR, a peak RSS above the documented bound, or a concurrent
 * user's call failing. It prints requests, refusals by code, the worst stall and peak RSS.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegHeader, png, xlsxBombs } from './support/hostile-files';
import { startChildServer, type ChildServer } from './support/child-server';
import { BOUNDARY, closing, multipartType, part, rawRequest, type RawAnswer } from './support/raw-http';

interface Ready {
  url: string;
  pid: number;
  dataDir: string;
  limits: { idleMs: number; requestMs: number };
  uploader: { token: string; orgId: number };
  bystander: { token: string; orgId: number };
  calls: Array<{ path: string; raw: boolean; resource: string | null; plugin: string | null }>;
  importable: string[];
}

/** docs/SERVER.md "Upload and import limits": the server's resident memory under this suite. */
const RSS_BOUND_MB = 768;
/** V8 old-space cap of the server under test (as hostile-input): live memory must fit, RSS then measures it */
const HEAP_MB = 384;
const IDLE_MS = 1500;
/** an answer must come within this (a stall is answered after IDLE_MS) */
const ANSWER_MS = 20_000;
const CONCURRENCY = 3;

const dataDir = mkdtempSync(join(tmpdir(), 'rti-uploads-'));
const childTmp = mkdtempSync(join(tmpdir(), 'rti-uploads-tmp-'));
let server: ChildServer<Ready>;
let ready: Ready;

/** Temporary files anywhere under the data folder and the child's TMPDIR. */
function leftovers(): string[] {
  const found: string[] = [];
  const walk = (dir: string, all: boolean) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      // not the server's: tsx's compile cache (the child's loader) and the test database
      if (e.isDirectory()) {
        if (!(dir === childTmp && /^(tsx-|rti-test-)/.test(e.name))) walk(p, all);
      } else if (all || e.name.startsWith('.upload-')) found.push(p);
    }
  };
  walk(join(dataDir, 'uploads'), false);
  walk(join(dataDir, 'imports'), false);
  walk(childTmp, true);
  return found;
}

/** A second user's calls during the suite: each must succeed; the slowest is the worst stall. */
function bystanderLoop() {
  let stop = false;
  let worst = 0;
  let worstAt = 0;
  let count = 0;
  const failures: string[] = [];
  const paths = ['/account/info', '/device-beacon/list'];
  const done = (async () => {
    while (!stop) {
      const path = paths[count % paths.length];
      const started = performance.now();
      try {
        const res = await fetch(`${ready.url}/api${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Token: ready.bystander.token, OrgId: String(ready.bystander.orgId) },
          body: '{"limit":20}',
          signal: AbortSignal.timeout(ANSWER_MS),
        });
        const body = (await res.json()) as { code: number; message: string };
        if (body.code !== 0) failures.push(`${path}: ${body.code} ${body.message}`);
      } catch (err) {
        failures.push(`${path}: ${String(err)}`);
      }
      if (performance.now() - started > worst) {
        worst = performance.now() - started;
        worstAt = started;
      }
      count++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      stop = true;
      await done;
      return { worst, worstAt, count, failures };
    },
  };
}

interface Case {
  name: string;
  body: Buffer;
  contentType?: string;
  contentLength?: number;
  /** 'stall': the rest of the body never comes, an answer is due after the idle time-out */
  kind?: 'answer' | 'stall' | 'abort';
  /** may be accepted (code 0) by this call: a stored file that nothing parses */
  acceptedBy?: RegExp;
}

const file = (name: string, data: Buffer, type = 'application/octet-stream') =>
  Buffer.concat([part(`form-data; name="file"; filename="${name}"`, type, data), closing]);
const encodedName = (encoded: string, data: Buffer) => Buffer.concat([part(`form-data; name="file"; filename*=UTF-8''${encoded}`, 'image/png', data), closing]);

async function cases(): Promise<Case[]> {
  const small = png(10, 10);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  const whole = file('a.png', small, 'image/png');
  const bombs = await xlsxBombs();
  const out: Case[] = [
    {
      name: 'truncated (issue reproduction)',
      contentType: 'multipart/form-data; boundary=X',
      body: Buffer.concat([
        Buffer.from('--X\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n'),
        Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      ]),
    },
    { name: 'truncated mid-file', body: whole.subarray(0, whole.length - 40) },
    { name: 'truncated in part headers', body: whole.subarray(0, 50) },
    { name: 'truncated xlsx', body: file('a.xlsx', bombs.hugeDimension).subarray(0, 600) },
    { name: 'raw NUL in name', body: file('a\u0000.png', small, 'image/png') },
    { name: 'raw control char in name', body: file('a\u0007b.png', small, 'image/png') },
    { name: 'encoded NUL in name', body: encodedName('a%00.png', small) },
    { name: 'encoded NUL in xlsx name', body: encodedName('a%00.xlsx', bombs.hugeDimension) },
    { name: 'bidi override in name', body: encodedName('%E2%80%AEgnp.exe.png', small) },
    { name: 'invalid UTF-8 name', body: encodedName('%FF%FE.png', small) },
    { name: '300-byte name', body: encodedName(`${'a'.repeat(300)}.png`, small) },
    { name: 'header line without colon', body: Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nnot a header\r\n\r\nxx\r\n`), closing]) },
    { name: '100 KB part header', body: Buffer.from(`--${BOUNDARY}\r\nX-${'h'.repeat(100_000)}: y\r\n\r\n`) },
    { name: 'no boundary parameter', contentType: 'multipart/form-data', body: whole },
    { name: 'not multipart', contentType: 'application/json', body: Buffer.from('{"file":"x"}') },
    { name: 'no file part', body: Buffer.concat([part('form-data; name="note"', 'text/plain', Buffer.from('x')), closing]) },
    { name: 'png name, pdf bytes', body: file('a.png', pdf, 'image/png') },
    { name: 'xlsx name, png bytes', body: file('a.xlsx', small) },
    { name: 'pdf name, zip bytes', body: file('a.pdf', bombs.hugeDimension, 'application/pdf') },
    { name: 'exe name', body: file('a.exe', Buffer.from('MZ')) },
    { name: 'oversized (11 MB)', body: file('big.pdf', Buffer.concat([pdf, Buffer.alloc(11 * 2 ** 20, 0x41)]), 'application/pdf') },
    { name: 'PNG bomb 16000×16000', body: file('bomb.png', png(16000, 16000, 8), 'image/png') },
    { name: 'PNG bomb 40000×40000', body: file('bomb.png', png(40000, 40000, 1), 'image/png') },
    { name: 'JPEG bomb 60000×50000', body: file('bomb.jpg', jpegHeader(60000, 50000), 'image/jpeg') },
    // one name each call accepts stalls (an answer after the idle time-out); the others are refused at once
    ...['png', 'pdf', 'xlsx'].map((ext): Case => ({
      name: `stalled .${ext} body`,
      kind: 'stall',
      body: file(`a.${ext}`, Buffer.alloc(64 * 1024, 0x41)).subarray(0, 40 * 1024),
      contentLength: 64 * 1024 + 400,
    })),
    {
      name: 'client goes away',
      kind: 'abort',
      body: file('big.pdf', Buffer.concat([pdf, Buffer.alloc(2 ** 20, 0x41)])).subarray(0, 600 * 1024),
      contentLength: 2 ** 20 + 2000,
    },
  ];
  // Import-only limits (sheet size, text): a stored file is kept as sent, never parsed.
  const importOnly = new Set(['hugeDimension', 'hugeSharedStrings', 'manySharedStrings', 'tooManyRows']);
  for (const [name, bytes] of Object.entries(bombs))
    out.push({ name: `xlsx ${name}`, body: file(`${name}.xlsx`, bytes), acceptedBy: importOnly.has(name) ? /^\/file\/file\/upload$/ : undefined });
  return out;
}

/** calls that answered a stalled body with 408 */
const stalled = new Set<string>();
/** when each request ran (performance.now()), to name what overlapped the worst stall */
const windows: Array<{ what: string; from: number; to: number }> = [];
const sent = {
  requests: 0,
  answered: 0,
  byCode: new Map<string, number>(),
  problems: [] as string[],
  accepted: [] as string[],
  hangs: 0,
  fiveXX: 0,
  internal: 0,
};

function judge(path: string, c: Case, r: RawAnswer) {
  const where = `${path} · ${c.name}`;
  sent.requests++;
  if (c.kind === 'abort') return;
  if (r.timedOut || r.status === null) {
    sent.hangs++;
    sent.problems.push(`${where}: no answer (${r.ms} ms) ${r.text.slice(0, 120)}`);
    return;
  }
  sent.answered++;
  const code = r.body?.code;
  const key = `HTTP ${r.status} / ${code ?? 'no envelope'}`;
  sent.byCode.set(key, (sent.byCode.get(key) ?? 0) + 1);
  if (r.status >= 500) {
    sent.fiveXX++;
    sent.problems.push(`${where}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
  }
  if (code === 10000) {
    sent.internal++;
    sent.problems.push(`${where}: code 10000`);
  }
  if (typeof code !== 'number' || typeof r.body?.message !== 'string' || (code !== 0 && !r.body.message))
    sent.problems.push(`${where}: not an envelope: ${r.text.slice(0, 200)}`);
  if (code === 0) {
    if (c.acceptedBy?.test(path)) sent.accepted.push(where);
    else sent.problems.push(`${where}: accepted`);
  }
  if (c.kind === 'stall') {
    if (r.status === 408) stalled.add(path);
    if (r.ms > IDLE_MS + 6000) sent.problems.push(`${where}: stall answered after ${r.ms} ms`);
  }
}

beforeAll(async () => {
  // What a killed process left: removed before the server listens.
  mkdirSync(join(dataDir, 'uploads', '42'), { recursive: true });
  mkdirSync(join(dataDir, 'imports'), { recursive: true });
  writeFileSync(join(dataDir, 'uploads', '42', '.upload-00112233aabbccdd'), 'partial');
  writeFileSync(join(dataDir, 'imports', '.upload-ddccbbaa33221100'), 'partial');
  server = await startChildServer<Ready>({
    script: 'test/support/upload-server.ts',
    name: 'upload server',
    heapMb: HEAP_MB,
    env: { DATA_DIR: dataDir, TMPDIR: childTmp, UPLOAD_IDLE_MS: String(IDLE_MS), REQUEST_TIMEOUT_MS: '15000', MQTT_PORT: '0', SIMULATOR_DEVICES: '0' },
  });
  ready = server.ready;
}, 120_000);

afterAll(async () => {
  await server?.stop(15_000);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(childTmp, { recursive: true, force: true });
});

describe('hostile uploads on every upload and import call', () => {
  it('swept the leftovers of a previous process at start-up', () => {
    expect(leftovers()).toEqual([]);
  });

  it('refuses everything clearly, never fails, hangs or dies, leaves no file; others keep being served', async () => {
    const uploads = ready.calls.filter((c) => c.raw);
    // The registry is the list: the two file calls and every resource's import are among them.
    expect(uploads.map((c) => c.path)).toEqual(expect.arrayContaining(['/file/image/upload', '/file/file/upload']));
    for (const resource of ready.importable)
      expect(
        uploads.some((c) => c.resource === resource && /\/import$/.test(c.path)),
        resource,
      ).toBe(true);
    expect(ready.limits.idleMs).toBe(IDLE_MS);

    const all = await cases();
    const baseline = server.rss();
    const loop = bystanderLoop();
    const started = Date.now();
    const headers = (contentType = multipartType) => ({
      Token: ready.uploader.token,
      OrgId: String(ready.uploader.orgId),
      'Content-Type': contentType,
      Connection: 'close',
    });
    const queue = uploads.flatMap((call) => all.map((c) => ({ call, c })));
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const { call, c } = job;
        const from = performance.now();
        const r = await rawRequest(ready.url, {
          path: `/api${call.path}`,
          headers: headers(c.contentType),
          body: c.body,
          contentLength: c.contentLength,
          waitMs: c.kind === 'abort' ? 1000 : ANSWER_MS,
          abortAfterMs: c.kind === 'abort' ? 200 : undefined,
        });
        windows.push({ what: `${call.path} · ${c.name}`, from, to: performance.now() });
        judge(call.path, c, r);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    // The largest image allowed (25 megapixels): thumbnailed while the loop goes on.
    const largeFrom = performance.now();
    const large = await rawRequest(ready.url, {
      path: '/api/file/image/upload',
      headers: headers(),
      body: file('large.png', png(5000, 5000), 'image/png'),
      waitMs: 60_000,
    });
    windows.push({ what: `/file/image/upload · 5000×5000 PNG (allowed, ${large.ms} ms)`, from: largeFrom, to: performance.now() });
    sent.requests++;
    expect(large.body?.code, large.text.slice(0, 300)).toBe(0);

    const stall = await loop.stop();
    const memory = server.rss();
    // Removal of partial files runs after the answer: give it a moment.
    for (let i = 0; i < 40 && leftovers().length; i++) await new Promise((r) => setTimeout(r, 50));
    const left = leftovers();
    const alive = (() => {
      try {
        process.kill(ready.pid, 0);
        return true;
      } catch {
        return false;
      }
    })();

    const summary = {
      uploadCalls: uploads.length,
      cases: all.length,
      requests: sent.requests,
      answered: sent.answered,
      refusalsByCode: Object.fromEntries([...sent.byCode].sort()),
      storedWithoutParsing: sent.accepted.length,
      fiveXX: sent.fiveXX,
      internalErrors: sent.internal,
      hangs: sent.hangs,
      restarts: alive && !server.exited() ? 0 : 1,
      bystanderRequests: stall.count,
      worstStallMs: Math.round(stall.worst),
      duringWorstStall: windows.filter((w) => w.from < stall.worstAt + stall.worst && w.to > stall.worstAt).map((w) => w.what),
      rssAtStartMb: Math.round(baseline.now),
      peakRssMb: Math.round(memory.peak),
      rssNowMb: Math.round(memory.now),
      seconds: Math.round((Date.now() - started) / 1000),
    };
    console.log(`[hostile-uploads] ${JSON.stringify(summary, null, 1)}`);
    if (sent.problems.length)
      console.log(`[hostile-uploads] problems:\n${sent.problems.slice(0, 40).join('\n')}\n--- server stderr ---\n${server.stderr().slice(-3000)}`);

    expect(sent.problems.slice(0, 20)).toEqual([]);
    // every multipart call (file uploads, imports) waited for the stalled body, then refused it
    const multipart = uploads
      .filter((c) => c.path.startsWith('/file/') || (c.resource && ready.importable.includes(c.resource) && /\/import$/.test(c.path)))
      .map((c) => c.path);
    expect(multipart.filter((p) => !stalled.has(p))).toEqual([]);
    expect([summary.fiveXX, summary.internalErrors, summary.hangs, summary.restarts]).toEqual([0, 0, 0, 0]);
    expect(server.exited()).toBeNull();
    expect(alive).toBe(true);
    expect(left).toEqual([]);
    expect(stall.failures.slice(0, 10)).toEqual([]);
    expect(memory.peak).toBeLessThan(RSS_BOUND_MB);
    expect(server.stderr()).not.toMatch(/uncaught exception|unhandled rejection/);
  }, 600_000);
});
