/**
 * The upload path under hostile input (issue 13, defects 1–4): truncated and malformed
 * multipart bodies, bad file names, stalls and clients that go away are refused or dropped
 * without a trace on disk; image bombs are judged from their header before any decoding,
 * and decoding stays off the event loop; Office archives are judged by their directory and
 * their real inflated sizes; leftovers of a previous process are swept at start-up.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_LIMITS, readImageHeader, withinLimits } from '../src/files/image-header';
import { tempDataDir, upload } from './import-fixtures';
import { jpegHeader, png, xlsxBombs } from './support/hostile-files';
import { closing, multipartType, part, rawRequest } from './support/raw-http';
import { startTestServer, type TestServer } from './support/test-server';

let ts: TestServer;
let dataDir: string;
let orgDir: string;
const IDLE_MS = 600;

beforeAll(async () => {
  dataDir = tempDataDir();
  // What a killed process leaves behind: swept before the server listens.
  mkdirSync(join(dataDir, 'uploads', '99'), { recursive: true });
  mkdirSync(join(dataDir, 'imports'), { recursive: true });
  writeFileSync(join(dataDir, 'uploads', '99', '.upload-0123456789abcdef'), 'partial');
  writeFileSync(join(dataDir, 'uploads', '99', 'kept.png'), 'stored file');
  writeFileSync(join(dataDir, 'imports', '.upload-fedcba9876543210'), 'partial');
  ts = await startTestServer({ config: { dataDir, uploadIdleMs: IDLE_MS } });
  // where uploads are received: next to them locally, this instance's tmp folder on S3 (STORAGE_URL)
  orgDir = ts.server.storage.tempDir('uploads', ts.orgA);
});
afterAll(() => ts?.close());

const temps = () => [orgDir, join(dataDir, 'imports')].flatMap((d) => (existsSync(d) ? readdirSync(d).filter((f) => f.startsWith('.upload-')) : []));
const headers = (language = 'en-US') => ({
  Token: ts.a.token,
  OrgId: String(ts.a.orgId),
  Language: language,
  'Content-Type': multipartType,
  Connection: 'close',
});
const send = (body: Buffer, extra: { language?: string; contentLength?: number; waitMs?: number; abortAfterMs?: number; path?: string } = {}) =>
  rawRequest(ts.url, {
    path: `/api${extra.path ?? '/file/image/upload'}`,
    headers: headers(extra.language),
    body,
    contentLength: extra.contentLength,
    waitMs: extra.waitMs ?? 10_000,
    abortAfterMs: extra.abortAfterMs,
  });
const until = async (check: () => boolean, ms = 3000) => {
  for (const end = Date.now() + ms; Date.now() < end && !check();) await new Promise((r) => setTimeout(r, 25));
  return check();
};

describe('image headers', () => {
  it('reads width and height of PNG, JPEG, GIF, BMP and WebP without decoding', async () => {
    const image = new Jimp({ width: 300, height: 200, color: 0x3366ccff });
    for (const [mime, type] of [
      ['image/png', 'png'],
      ['image/jpeg', 'jpeg'],
      ['image/gif', 'gif'],
      ['image/bmp', 'bmp'],
    ] as const) {
      expect(readImageHeader(await image.getBuffer(mime)), mime).toEqual({ type, width: 300, height: 200 });
    }
    // WebP: extended (VP8X), lossless (VP8L) and lossy (VP8) headers
    const riff = (chunk: string, body: Buffer) =>
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.from(chunk), Buffer.alloc(4), body]);
    const vp8x = Buffer.alloc(10);
    vp8x.writeUIntLE(16000 - 1, 4, 3);
    vp8x.writeUIntLE(9000 - 1, 7, 3);
    expect(readImageHeader(riff('VP8X', vp8x))).toEqual({ type: 'webp', width: 16000, height: 9000 });
    const vp8l = Buffer.alloc(10);
    vp8l[0] = 0x2f;
    vp8l.writeUInt32LE((640 - 1) | ((480 - 1) << 14), 1);
    expect(readImageHeader(riff('VP8L', vp8l))).toEqual({ type: 'webp', width: 640, height: 480 });
    const vp8 = Buffer.from([0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01]);
    expect(readImageHeader(riff('VP8 ', vp8))).toEqual({ type: 'webp', width: 640, height: 480 });
    // bombs declare their size in the first bytes; a frame header after 32 KB of EXIF is found
    expect(readImageHeader(png(16000, 16000, 1))).toEqual({ type: 'png', width: 16000, height: 16000 });
    expect(readImageHeader(jpegHeader(60000, 50000))).toEqual({ type: 'jpeg', width: 60000, height: 50000 });
    for (const broken of [Buffer.alloc(0), png(10, 10).subarray(0, 20), jpegHeader(10, 10).subarray(0, 100), Buffer.from('GIF89a'), Buffer.from('%PDF-1.4')])
      expect(readImageHeader(broken)).toBeNull();
  });

  it('judges dimensions against the documented limits', () => {
    const h = (width: number, height: number) => ({ type: 'png' as const, width, height });
    expect(IMAGE_LIMITS).toEqual({ maxSide: 10_000, maxPixels: 25_000_000 });
    expect(withinLimits(h(6000, 4000))).toBe(true);
    expect(withinLimits(h(10_000, 2_500))).toBe(true);
    expect(withinLimits(h(10_001, 10))).toBe(false);
    expect(withinLimits(h(16_000, 16_000))).toBe(false);
    expect(withinLimits(h(5_001, 5_000))).toBe(false);
  });
});

describe('image bombs', () => {
  it('refuses images declaring too many pixels before decoding, naming the limits in the caller language', async () => {
    const started = Date.now();
    const bomb = await upload(ts, ts.a, '/file/image/upload', png(16000, 16000, 4), 'bomb.png');
    expect(bomb.status).toBe(413);
    expect(bomb.body).toMatchObject({
      code: 10001,
      message: 'Images may have at most 10000 pixels on a side and 25 megapixels in all; this one declares 16000 × 16000',
    });
    const zh = await upload(ts, ts.a, '/file/image/upload', jpegHeader(40000, 40000), 'bomb.jpg', 'zh-CN');
    expect(zh.body.message).toBe('图片每边最多10000像素、总计最多25百万像素；该图片声明为40000 × 40000');
    const ja = await upload(ts, ts.a, '/file/image/upload', png(6000, 6000, 1), 'wide.png', 'ja-JP');
    expect(ja.body.message).toContain('6000 × 6000');
    // refused from the header: no decoding happened
    expect(Date.now() - started).toBeLessThan(3000);
    expect(temps()).toEqual([]);
    expect(existsSync(orgDir) ? readdirSync(orgDir) : []).toEqual([]);
  });

  it('decodes a large allowed image in a worker: the event loop keeps answering', async () => {
    const big = png(4000, 4000);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = Date.now();
    const r = await upload(ts, ts.a, '/file/image/upload', big, 'large.png');
    const took = Date.now() - started;
    delay.disable();
    expect(r.body.code).toBe(0);
    const thumb = await ts.a.fetch('/file/download', { fileName: new URL(r.body.data.thumbUrl, 'http://x').searchParams.get('fileName') });
    const image = await Jimp.read(Buffer.from(await thumb.arrayBuffer()));
    expect([image.bitmap.width, image.bitmap.height]).toEqual([200, 200]);
    const worst = delay.max / 1e6;
    console.log(`[files-hardening] 4000×4000 PNG thumbnail: ${took} ms; worst event-loop delay meanwhile ${worst.toFixed(0)} ms`);
    // decoding 16 MP in jimp takes seconds of CPU; on the event loop it would stall it as long
    expect(worst).toBeLessThan(Math.max(250, took / 4));
  });
});

describe('multipart bodies that break', () => {
  const pngPart = (disposition = 'form-data; name="file"; filename="a.png"') => part(disposition, 'image/png', png(10, 10));

  it('answers a truncated body (the issue 13 reproduction) with a refusal and keeps serving', async () => {
    const truncated = Buffer.concat([
      Buffer.from('--X\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    ]);
    const r = await rawRequest(ts.url, {
      path: '/api/file/image/upload',
      headers: { ...headers(), 'Content-Type': 'multipart/form-data; boundary=X' },
      body: truncated,
      waitMs: 10_000,
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 10001, message: 'The upload is incomplete or malformed; please send the file again' });
    // a part cut in the middle of the file, and one cut in its headers
    const file = pngPart();
    for (const cut of [file.subarray(0, file.length - 30), file.subarray(0, 40)]) {
      const a = await send(cut, { language: 'ja-JP' });
      expect([a.status, a.body?.code]).toEqual([400, 10001]);
      expect(a.body?.message).toBe('アップロードの内容が不完全または不正です。ファイルをもう一度送信してください');
    }
    expect((await ts.a.call('/account/info')).body.code).toBe(0);
    expect(temps()).toEqual([]);
  });

  it('refuses control characters, bidi overrides and over-long names in file names, and malformed part headers', async () => {
    // a raw NUL in the header: busboy refuses the header itself
    const rawNul = await send(Buffer.concat([pngPart('form-data; name="file"; filename="a\u0000.png"'), closing]));
    expect([rawNul.status, rawNul.body?.code, rawNul.timedOut]).toEqual([400, 10001, false]);
    const badName = 'The file name must not be empty, longer than 255 bytes or contain control characters';
    for (const name of ["UTF-8''a%00.png", "UTF-8''a%07b.png", "UTF-8''%E2%80%AEgnp.exe.png", `UTF-8''${'a'.repeat(300)}.png`, "UTF-8''%FF%FE.png"]) {
      const r = await send(Buffer.concat([pngPart(`form-data; name="file"; filename*=${name}`), closing]));
      expect([r.status, r.body?.message], name).toEqual([400, badName]);
    }
    for (const body of [
      Buffer.concat([
        part('form-data; name="file"; filename="a.png"', 'image/png', png(10, 10)).subarray(0, 20),
        Buffer.from('no colon header\r\n\r\nxx\r\n'),
        closing,
      ]),
      Buffer.from(`--${'hostileBoundary7MA4YWxkTrZu0gW'}\r\nX-${'h'.repeat(100_000)}: y\r\n\r\n`),
    ]) {
      const r = await send(body);
      expect(r.status, r.text.slice(0, 200)).toBeLessThan(500);
      expect(r.body?.code).toBe(10001);
    }
    // no boundary at all, a part without a file
    const noBoundary = await rawRequest(ts.url, {
      path: '/api/file/file/upload',
      headers: { ...headers(), 'Content-Type': 'multipart/form-data' },
      body: closing,
      waitMs: 5000,
    });
    expect([noBoundary.status, noBoundary.body?.code]).toEqual([400, 10001]);
    const noFile = await send(Buffer.concat([part('form-data; name="other"', 'text/plain', Buffer.from('x')), closing]));
    expect(noFile.body).toMatchObject({ code: 10001, message: 'Please choose a file to upload' });
    expect(temps()).toEqual([]);
  });

  it('refuses an upload that stops arriving, within the idle time-out', async () => {
    const file = pngPart();
    const r = await send(file.subarray(0, file.length - 10), { contentLength: file.length + closing.length });
    expect(r.status).toBe(408);
    expect(r.body?.message).toBe(`Nothing arrived for ${Math.round(IDLE_MS / 1000)} s; the upload was cancelled`);
    expect(r.ms).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(r.ms).toBeLessThan(IDLE_MS + 2000);
    expect(await until(() => temps().length === 0)).toBe(true);
  });

  it('removes the partial file of a client that goes away', async () => {
    const big = Buffer.concat([
      part('form-data; name="file"; filename="big.pdf"', 'application/pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(512 * 1024, 0x41)])),
    ]);
    let seen = false;
    const watcher = setInterval(() => (seen ||= temps().length > 0), 5);
    const r = await send(big.subarray(0, 400 * 1024), { path: '/file/file/upload', contentLength: big.length + closing.length, abortAfterMs: 300 });
    clearInterval(watcher);
    expect(r.status).toBeNull();
    expect(seen).toBe(true);
    expect(await until(() => temps().length === 0)).toBe(true);
    expect((await ts.a.call('/account/info')).body.code).toBe(0);
  });

  it('swept what a previous process left, and only that', () => {
    expect(readdirSync(join(dataDir, 'uploads', '99'))).toEqual(['kept.png']);
    expect(readdirSync(join(dataDir, 'imports')).filter((f) => f.startsWith('.upload-'))).toEqual([]);
  });
});

describe('Office archives', () => {
  it('refuses zip bombs and broken archives as stored files, accepts real ones', async () => {
    const bombs = await xlsxBombs();
    const limits = 'The .xlsx file expands to more than 256 MB or holds more than 5000 parts, and is not accepted';
    for (const name of ['lyingSheet', 'hugeDeclared', 'tooManyParts']) {
      const r = await upload(ts, ts.a, '/file/file/upload', bombs[name], `${name}.xlsx`);
      expect([r.status, r.body.message], name).toEqual([413, limits]);
    }
    for (const name of ['smuggled', 'garbageDeflate']) {
      const r = await upload(ts, ts.a, '/file/file/upload', bombs[name], `${name}.xlsx`);
      expect([r.status, r.body.code, r.body.message], name).toEqual([200, 10001, 'The .xlsx file is not a readable archive']);
    }
    // A sheet's declared dimension or its strings mean nothing to a stored file: kept as sent.
    const stored = await upload(ts, ts.a, '/file/file/upload', bombs.hugeDimension, 'report.xlsx');
    expect(stored.body.code).toBe(0);
    expect(temps()).toEqual([]);
  });
});
