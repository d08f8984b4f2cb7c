/**
 * The weekly inventory mail (SPEC task name 5) carries the weekly screenshot map and marker pages
 * as PNGs beside its workbook: drawn by the server's renderer (headless chromium opening this
 * server's built console with a render session of the task's author) and delivered through a
 * real SMTP server process (the scheduler's smtp-process.mjs, the smtp-server package in a child
 * process). Without a browser the mail still goes — the workbook and a line saying the pictures
 * could not be drawn — and the run's record carries that line.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_PATH) and the built console (npm run build -w @rti/console)
 * for the pictures; the no-browser mail runs everywhere.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCREENSHOTS, grantWholeCatalogue } from '../../../server/test/support/console-browser';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

const SMTP_PROCESS = path.resolve(__dirname, '../../scheduler/test/smtp-process.mjs');
const CONSOLE = path.join(process.env.CONSOLE_DIST ?? path.resolve(__dirname, '../../../console/dist'), 'index.html');
// where the renderer looks (server/src/render/console-png.ts): RENDER_BROWSER, CHROMIUM_PATH, else the usual paths
const browser = [process.env.RENDER_BROWSER, process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find(
  (p) => p && fs.existsSync(p),
);
const built = fs.existsSync(CONSOLE);
const why = !browser
  ? 'no chromium installed (/usr/bin/chromium or CHROMIUM_PATH)'
  : !built
    ? `the console is not built (${CONSOLE}: npm run build -w @rti/console)`
    : '';
if (why) console.warn(`[weekly-pictures] the PNG test is skipped: ${why}`);

const mails: Mail[] = [];
let child: ChildProcess | null = null;
let ts: TestServer;
let dir: string;

function smtp(port: number): Promise<void> {
  const p = spawn(process.execPath, [SMTP_PROCESS, String(port), 'accept'], { stdio: ['ignore', 'pipe', 'inherit'] });
  child = p;
  let buf = '';
  return new Promise((resolve, reject) => {
    p.on('error', reject);
    p.stdout!.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line === 'ready') resolve();
        else if (line) mails.push(JSON.parse(line) as Mail);
      }
    });
  });
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function ok<T = any>(caller: Caller, p: string, body: unknown = {}): Promise<T> {
  const r = await caller.call<T>(p, body);
  if (r.body.code !== 0) throw new Error(`${p}: ${r.body.code} ${r.body.message}`);
  return r.body.data as T;
}

/** the message's attachments: file name, content type and decoded bytes (MIME parts split at their boundary, headers unfolded) */
function attachments(eml: string): Array<{ filename: string; type: string; content: Buffer }> {
  const text = eml.replace(/\r\n/g, '\n');
  const boundary = /boundary="?([^"\n;]+)"?/.exec(text)?.[1];
  if (!boundary) return [];
  const out: Array<{ filename: string; type: string; content: Buffer }> = [];
  for (const part of text.split(`--${boundary}`).slice(1)) {
    const cut = part.indexOf('\n\n');
    if (cut < 0) continue;
    const head = part.slice(0, cut).replace(/\n[ \t]+/g, ' ');
    const filename = /filename\*?=(?:utf-8'')?"?([^";\n]+)"?/i.exec(head)?.[1];
    if (!filename || !/Content-Disposition:\s*attachment/i.test(head)) continue;
    const type = /Content-Type:\s*([\w./+-]+)/i.exec(head)?.[1] ?? '';
    out.push({ filename, type, content: Buffer.from(part.slice(cut + 2).replace(/[^A-Za-z0-9+/=]/g, ''), 'base64') });
  }
  return out;
}

/** the text/plain part, decoded */
function textOf(eml: string): string {
  const part = /Content-Type: text\/plain[^\r\n]*\r?\nContent-Transfer-Encoding: ([\w-]+)\r?\n\r?\n([^]*?)\r?\n(?:--|$)/i.exec(eml);
  if (!part) return '';
  if (part[1].toLowerCase() === 'base64') return Buffer.from(part[2].replace(/\s/g, ''), 'base64').toString('utf8');
  const bytes = part[2].replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  const port = await freePort();
  await smtp(port);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-weekly-pictures-'));
  Object.assign(process.env, {
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'Reports <reports@example.com>',
    SCHEDULER_TIMEZONE: 'UTC',
    // the map pages' plugins without a live broker or a demo fleet
    MQTT_PORT: '0',
    SIMULATOR_DEVICES: '0',
    STATE_FLUSH_MS: '100000',
    STATE_TICK_MS: '100000',
    TELEMETRY_STORE: 'segments',
  });
  ts = await startTestServer({
    plugins: ['scheduler', 'master-data', 'shipping', 'inventory', 'reports', 'telemetry', 'map', 'vehicle'],
    config: { dataDir: dir },
  });
  // the console's menus and pages need the Menu/View codes too (the render signs in as the task's author)
  await grantWholeCatalogue(ts);
  // two warehouses on the map and a drawn route between them
  const place = async (name: string, longitude: number, latitude: number) =>
    (await ok<{ id: number }>(ts.a, '/location/create', { name, longitude, latitude })).id;
  const w1 = await ok<{ id: number }>(ts.a, '/warehouse/create', {
    code: 'W1',
    name: 'Main',
    minInventory: 1,
    locationId: await place('Shanghai', 121.47, 31.23),
  });
  const w2 = await ok<{ id: number }>(ts.a, '/warehouse/create', {
    code: 'W2',
    name: 'North',
    minInventory: 1,
    locationId: await place('Beijing', 116.4, 39.9),
  });
  await ok(ts.a, '/route/create', { routeName: 'Shanghai – Beijing', fromWarehouseId: w1.id, toWarehouseId: w2.id, needDrawLine: true, routeColor: '#f5222d' });
}, 120_000);

afterAll(async () => {
  await ts?.close();
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** the mail with this subject, once the SMTP process has printed it (its stdout may trail the run's answer) */
async function mailWith(subject: string): Promise<Mail> {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const m = mails.find((x) => x.data.includes(`Subject: ${subject}`));
    if (m) return m;
  }
  throw new Error(`no mail "${subject}" arrived`);
}

const weeklyTask = async (subject: string) =>
  (await ok<{ id: number }>(ts.a, '/task-config/create', { name: 5, type: 20, cron: '0 8 * * 1', available: true, mailTo: 'stock@example.com', subject })).id;

it.skipIf(Boolean(why))(
  'attaches the map and the carriers as PNGs beside the workbook',
  async () => {
    const id = await weeklyTask('Weekly with maps');
    const run = await ok(ts.a, '/task-config/run', { id });
    expect(run).toMatchObject({ status: 'succeeded', recipients: ['stock@example.com'], error: null });
    const mail = await mailWith('Weekly with maps');
    const files = attachments(mail.data);
    expect(files.map((f) => f.filename)).toEqual([
      expect.stringMatching(/^weekly-inventory-.*\.xlsx$/),
      expect.stringMatching(/^weekly-map-\d{4}-\d\d-\d\d\.png$/),
      expect.stringMatching(/^weekly-carriers-\d{4}-\d\d-\d\d\.png$/),
    ]);
    for (const png of files.filter((f) => f.type === 'image/png')) {
      expect(png.content.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      // IHDR: the viewport's width and height; a drawn page, not an empty file
      expect([png.content.readUInt32BE(16), png.content.readUInt32BE(20)]).toEqual([1280, 800]);
      expect(png.content.length).toBeGreaterThan(10_000);
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      fs.writeFileSync(path.join(SCREENSHOTS, png.filename.replace(/-\d{4}-\d\d-\d\d/, '')), png.content);
    }
    // the render session is gone once the pictures are taken
    const q = (id: string) => ts.server.db.sequelize.getQueryInterface().quoteIdentifier(id);
    const live = await ts.server.db.sequelize.query(
      `SELECT COUNT(*) AS n FROM ${q('sys_session')} WHERE ${q('userAgent')} = 'console-render' AND ${q('revokedAt')} IS NULL`,
      {
        plain: true,
      },
    );
    expect(Number((live as { n: number }).n)).toBe(0);
  },
  240_000,
);

it('without a browser the mail still goes, with the workbook and a line saying the maps could not be drawn', async () => {
  const render = ts.server.config.render;
  const before = render.browser;
  render.browser = path.join(dir, 'no-such-chromium');
  try {
    const id = await weeklyTask('Weekly without maps');
    const run = await ok(ts.a, '/task-config/run', { id });
    expect(run.status).toBe('succeeded');
    expect(run.error).toBe(
      'Map of warehouses and routes could not be drawn: no browser is installed on the server.\nMap of carriers by transport status could not be drawn: no browser is installed on the server.',
    );
    const mail = await mailWith('Weekly without maps');
    expect(attachments(mail.data).map((f) => f.type)).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    expect(textOf(mail.data)).toContain('Map of warehouses and routes could not be drawn: no browser is installed on the server.');
    // the caller's language: the same line in Chinese
    const zh = await ts.a.call<{ error: string }>('/task-config/run', { id }, { language: 'zh-CN' });
    expect(zh.body.data.error).toContain('仓库与线路地图未能生成：服务器未安装浏览器。');
  } finally {
    render.browser = before;
  }
}, 60_000);
