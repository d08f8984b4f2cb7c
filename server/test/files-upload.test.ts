/**
 * /file/image/upload, /file/file/upload and /file/download: formats and sizes of SPEC §9,
 * content checked by signature, real thumbnails, organisation-private downloads.
 */
import { existsSync, readdirSync } from 'node:fs';
import { objectKey } from '../src/files/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jimp } from 'jimp';
import { startTestServer, type TestServer } from './support/test-server';
import { tempDataDir, upload } from './import-fixtures';

let ts: TestServer;
let dataDir: string;
let png: Buffer;
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ config: { dataDir } });
  png = await new Jimp({ width: 800, height: 400, color: 0x3366ccff }).getBuffer('image/png');
});
afterAll(() => ts?.close());

describe('image upload', () => {
  it('stores the image with a real thumbnail', async () => {
    const r = await upload(ts, ts.a, '/file/image/upload', png, 'photo.png');
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({
      orgFileName: 'photo.png',
      fileName: expect.stringMatching(/^[0-9a-f]{32}\.png$/),
      url: expect.stringContaining('/file/download'),
      thumbUrl: expect.stringContaining('.thumb.jpg'),
    });
    // stored (the data folder, or S3 when the suite runs with STORAGE_URL)
    expect(await ts.server.storage.getBuffer(objectKey('uploads', ts.orgA, r.body.data.fileName))).not.toBeNull();
    const thumbName = new URL(r.body.data.thumbUrl, 'http://x').searchParams.get('fileName');
    const thumb = await ts.a.fetch('/file/download', { fileName: thumbName });
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const image = await Jimp.read(Buffer.from(await thumb.arrayBuffer()));
    expect([image.bitmap.width, image.bitmap.height]).toEqual([200, 100]);
  });

  it('refuses a .png name with PDF bytes, other formats and oversized images', async () => {
    const fake = await upload(ts, ts.a, '/file/image/upload', pdf, 'photo.png');
    expect(fake.body).toMatchObject({ code: 10001, message: 'The file content does not match a .png file' });
    const gif = await upload(ts, ts.a, '/file/image/upload', Buffer.from('GIF89a'), 'anim.gif');
    // format and size refused each with its own message (SPEC §5, issue 23 item 7)
    expect(gif.body.message).toBe('Images must be jpg, jpeg, png');
    const big = await upload(ts, ts.a, '/file/image/upload', Buffer.concat([png, Buffer.alloc(5120 * 1024)]), 'big.png');
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('Images may be at most 5120 KB');
    // A PNG signature over garbage is not an image either.
    const garbage = await upload(ts, ts.a, '/file/image/upload', Buffer.concat([png.subarray(0, 8), Buffer.alloc(200, 7)]), 'broken.png');
    expect(garbage.body.code).toBe(10001);
    // no temporary file left where this instance receives uploads (next to them locally, its tmp folder on S3)
    const received = ts.server.storage.tempDir('uploads', ts.orgA);
    expect(existsSync(received) ? readdirSync(received).filter((f) => f.startsWith('.upload-')) : []).toEqual([]);
  });
});

describe('file upload and download', () => {
  it('accepts a pdf and serves it back to its organisation only', async () => {
    const r = await upload(ts, ts.a, '/file/file/upload', pdf, 'manual.pdf');
    expect(r.body.data).toMatchObject({ orgFileName: 'manual.pdf', thumbUrl: null });
    const back = await ts.a.fetch('/file/download', { fileName: r.body.data.fileName });
    expect(back.headers.get('content-type')).toBe('application/pdf');
    expect(back.headers.get('content-disposition')).toContain("filename*=UTF-8''manual.pdf");
    expect(Buffer.from(await back.arrayBuffer()).equals(pdf)).toBe(true);
    const other = await ts.b.call('/file/download', { fileName: r.body.data.fileName });
    expect(other.body.code).toBe(10002);
  });

  it('refuses a docx name with PDF bytes, unknown formats and path tricks', async () => {
    expect((await upload(ts, ts.a, '/file/file/upload', pdf, 'report.docx')).body.message).toBe('The file content does not match a .docx file');
    expect((await upload(ts, ts.a, '/file/file/upload', pdf, 'run.exe')).body.message).toBe('Files must be doc, ppt, xls, docx, pptx, xlsx, pdf');
    for (const fileName of ['../../etc/passwd', `../${ts.orgA}/x.pdf`, '/etc/hosts', 'a'.repeat(32) + '.pdf/..', '']) {
      expect((await ts.a.call('/file/download', { fileName })).body.code).toBe(10002);
    }
  });

  it('needs a session and a multipart body', async () => {
    expect((await ts.call('/file/file/upload', {})).status).toBe(401);
    const json = await ts.a.call('/file/file/upload', { file: 'x' });
    expect(json.status).toBe(400);
  });
});
