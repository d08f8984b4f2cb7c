/**
 * Uploads through the storage interface (issue 22), on both storages: the data folder and S3
 * (a real S3-speaking server process, s3rver, started here on a free port). On S3, two API
 * instances with their own data folders serve each other's uploads; a store that is down
 * answers 503 in the caller's language and keeps nothing; keys carry the organisation; an
 * instance sweeps only its own temporary files.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyOrg, objectKey, type StorageConfig } from '../src/files/storage';
import { createServer, type RtiServer } from '../src/index';
import { startTestServer, type TestServer } from './support/test-server';
import { s3Storage, startS3rver, type RunningS3 } from './support/s3';
import { tempDataDir, upload } from './import-fixtures';

let s3: RunningS3;
let png: Buffer;
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const nameOf = (url: string) => new URL(url, 'http://x').searchParams.get('fileName')!;

beforeAll(async () => {
  s3 = await startS3rver();
  png = await new Jimp({ width: 800, height: 400, color: 0x3366ccff }).getBuffer('image/png');
}, 60_000);
afterAll(() => s3?.cleanup());

const kinds: Array<['local' | 's3', () => StorageConfig]> = [
  ['local', () => ({ kind: 'local' })],
  ['s3', () => s3Storage(s3, 'rti-files-one')],
];

describe.each(kinds)('uploads on %s storage', (kind, storage) => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({ config: { dataDir: tempDataDir(), instanceId: 'api-1', storage: storage() } });
  });
  afterAll(() => ts?.close());

  it('stores an image with its thumbnail and a document, and streams them back whole', async () => {
    const img = await upload(ts, ts.a, '/file/image/upload', png, 'photo.png');
    expect(img.body.code).toBe(0);
    const back = await ts.a.fetch('/file/download', { fileName: img.body.data.fileName });
    expect(back.status).toBe(200);
    expect(back.headers.get('content-length')).toBe(String(png.length));
    expect(back.headers.get('content-disposition')).toContain("filename*=UTF-8''photo.png");
    expect(Buffer.from(await back.arrayBuffer()).equals(png)).toBe(true);
    const thumb = await ts.a.fetch('/file/download', { fileName: nameOf(img.body.data.thumbUrl) });
    const image = await Jimp.read(Buffer.from(await thumb.arrayBuffer()));
    expect([image.bitmap.width, image.bitmap.height]).toEqual([200, 100]);
    const doc = await upload(ts, ts.a, '/file/file/upload', pdf, '报告.pdf');
    const got = await ts.a.fetch('/file/download', { fileName: doc.body.data.fileName });
    expect(Buffer.from(await got.arrayBuffer()).equals(pdf)).toBe(true);
    expect(got.headers.get('content-disposition')).toContain(encodeURIComponent('报告.pdf'));
  });

  it("a forged name reads nothing of another organisation's", async () => {
    const theirs = await upload(ts, ts.b, '/file/file/upload', pdf, 'b.pdf');
    expect(theirs.body.code).toBe(0);
    for (const fileName of [
      theirs.body.data.fileName,
      `../${ts.orgB}/${theirs.body.data.fileName}`,
      `..%2F${ts.orgB}%2F${theirs.body.data.fileName}`,
      `uploads/${ts.orgB}/${theirs.body.data.fileName}`,
    ]) {
      const r = await ts.a.call('/file/download', { fileName });
      expect(r.body.code, fileName).toBe(10002);
    }
    expect((await ts.b.fetch('/file/download', { fileName: theirs.body.data.fileName })).status).toBe(200);
  });
});

describe('storage keys', () => {
  it('carry the organisation and refuse anything else', () => {
    expect(objectKey('uploads', 12, 'a.png')).toBe('uploads/12/a.png');
    expect(objectKey('uploads', null, 'a.png')).toBe('uploads/0/a.png');
    expect(keyOrg('uploads/12/a.png')).toBe(12);
    for (const bad of ['uploads/12/../13/a.png', 'uploads/x/a.png', 'other/1/a.png', 'uploads/1/.hidden', 'uploads/-1/a.png', 'uploads/1/a/b.png'])
      expect(keyOrg(bad), bad).toBeNull();
    expect(() => objectKey('uploads', 1, '../2/a.png')).toThrow();
    expect(() => objectKey('uploads', -1, 'a.png')).toThrow();
  });
});

describe('two API instances on one database and one S3 bucket', () => {
  let one: TestServer;
  let two: RtiServer;
  let twoUrl: string;
  const bucket = 'rti-files-two';
  const call = (url: string, token: string, orgId: number, path: string, body: unknown, language = 'en-US') =>
    fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: token, OrgId: String(orgId), Language: language },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    one = await startTestServer({ config: { dataDir: tempDataDir(), instanceId: 'api-1', storage: s3Storage(s3, bucket, 'rti') } });
    two = await createServer({
      databaseUrl: one.db.url,
      plugins: false,
      logError: () => undefined,
      config: { dataDir: tempDataDir(), instanceId: 'api-2', storage: s3Storage(s3, bucket, 'rti') },
    });
    twoUrl = (await two.listen(0)).url;
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('an upload through one instance downloads through the other, thumbnail included; keys carry the organisation', async () => {
    const started = Date.now();
    const img = await upload(one, one.a, '/file/image/upload', png, 'photo.png');
    expect(img.body.code).toBe(0);
    const uploaded = Date.now();
    const back = await call(twoUrl, one.a.token, one.orgA, '/file/download', { fileName: img.body.data.fileName });
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer()).equals(png)).toBe(true);
    console.log(`[storage] upload ${png.length} B through api-1: ${uploaded - started} ms; download through api-2: ${Date.now() - uploaded} ms`);
    const thumb = await call(twoUrl, one.a.token, one.orgA, '/file/download', { fileName: nameOf(img.body.data.thumbUrl) });
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    // and the other way round
    const doc = await (async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(pdf)]), 'two.pdf');
      const r = await fetch(`${twoUrl}/api/file/file/upload`, { method: 'POST', headers: { Token: one.b.token, OrgId: String(one.orgB) }, body: form });
      return (await r.json()) as { code: number; data: { fileName: string } };
    })();
    expect(doc.code).toBe(0);
    expect((await one.b.fetch('/file/download', { fileName: doc.data.fileName })).status).toBe(200);
    // the bucket holds objects under <prefix>/uploads/<org>/ only, nothing of either data folder
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (listed.Contents ?? []).map((o) => o.Key!);
    client.destroy();
    expect(keys).toEqual(
      expect.arrayContaining([
        `rti/uploads/${one.orgA}/${img.body.data.fileName}`,
        `rti/uploads/${one.orgA}/${nameOf(img.body.data.thumbUrl)}`,
        `rti/uploads/${one.orgB}/${doc.data.fileName}`,
      ]),
    );
    expect(keys.every((k) => /^rti\/uploads\/\d+\/[0-9a-f]{32}(\.thumb)?\.[a-z]{3,4}(\.json)?$/.test(k))).toBe(true);
    expect(existsSync(join(one.server.config.dataDir, 'uploads'))).toBe(false);
  });

  it("a store that is down: 503 in the caller's language, no file kept anywhere; back once the store is", async () => {
    const img = await upload(one, one.a, '/file/image/upload', png, 'before.png');
    await s3.stop();
    try {
      const down = await upload(one, one.a, '/file/image/upload', png, 'photo.png', 'zh-CN');
      expect(down.status).toBe(503);
      expect(down.body.message).toBe('文件存储暂时不可用，未保存任何内容，请稍后重试');
      const doc = await upload(one, one.a, '/file/file/upload', pdf, 'a.pdf');
      expect(doc.status).toBe(503);
      expect(doc.body.message).toMatch(/storage is unavailable/);
      const read = await call(twoUrl, one.a.token, one.orgA, '/file/download', { fileName: img.body.data.fileName }, 'ja-JP');
      expect(read.status).toBe(503);
      const tmp = join(one.server.config.dataDir, 'tmp', 'uploads');
      expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
    } finally {
      await s3.start();
    }
    const again = await upload(one, one.a, '/file/image/upload', png, 'after.png');
    expect(again.body.code).toBe(0);
    expect((await call(twoUrl, one.a.token, one.orgA, '/file/download', { fileName: again.body.data.fileName })).status).toBe(200);
  });
});

describe('a store that is down when the server starts', () => {
  it('the server starts and answers; once the store is back the first upload creates the bucket and succeeds', async () => {
    await s3.stop();
    let ts: TestServer | undefined;
    let back = false;
    try {
      ts = await startTestServer({ config: { dataDir: tempDataDir(), instanceId: 'api-late', storage: s3Storage(s3, 'rti-files-late') } });
      expect((await upload(ts, ts.a, '/file/file/upload', pdf, 'a.pdf')).status).toBe(503);
      await s3.start();
      back = true;
      const up = await upload(ts, ts.a, '/file/file/upload', pdf, 'a.pdf');
      expect(up.body.code).toBe(0);
      expect((await ts.a.fetch('/file/download', { fileName: up.body.data.fileName })).status).toBe(200);
    } finally {
      if (!back) await s3.start();
      await ts?.close();
    }
  });
});

describe('temporary files are per instance', () => {
  it("a start sweeps this instance's leftovers (and unnamed ones from before), never another instance's in a shared folder", async () => {
    const dataDir = tempDataDir();
    const uploads = join(dataDir, 'uploads', '7');
    const imports = join(dataDir, 'imports');
    mkdirSync(uploads, { recursive: true });
    mkdirSync(imports, { recursive: true });
    for (const dir of [uploads, imports]) {
      writeFileSync(join(dir, '.upload-api-1~0123456789abcdef'), 'mine, from before a crash');
      writeFileSync(join(dir, '.upload-api-2~0123456789abcdef'), 'in flight on api-2');
      writeFileSync(join(dir, '.upload-fedcba9876543210'), 'from an older version');
    }
    const ts = await startTestServer({ config: { dataDir, instanceId: 'api-1' } });
    try {
      expect(readdirSync(uploads)).toEqual(['.upload-api-2~0123456789abcdef']);
      expect(readdirSync(imports)).toEqual(['.upload-api-2~0123456789abcdef']);
    } finally {
      await ts.close();
    }
  });
});
