/**
 * Theme images of a new organisation on object storage (issue 23 defects 2 and 3 on S3): the
 * logo uploaded while creating the organisation is copied to the new organisation's keys and
 * served to its public login page without a session — through the same storage interface as
 * every upload (a real S3-speaking server process, s3rver).
 */
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectKey } from '../src/files/storage';
import { startTestServer, type TestServer } from './support/test-server';
import { s3Storage, startS3rver, type RunningS3 } from './support/s3';
import { tempDataDir, upload } from './import-fixtures';

let s3: RunningS3;
let ts: TestServer;
let png: Buffer;

beforeAll(async () => {
  s3 = await startS3rver();
  png = await new Jimp({ width: 160, height: 50, color: 0x22aa55ff }).getBuffer('image/png');
  ts = await startTestServer({ config: { dataDir: tempDataDir(), instanceId: 'api-theme', storage: s3Storage(s3, 'rti-theme') } });
}, 60_000);
afterAll(async () => {
  await ts?.close();
  await s3?.cleanup();
});

describe('theme images on S3', () => {
  it('land under the new organisation and reach its login page without a session', async () => {
    const platform = await ts.callerFor(await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true }), ts.orgA);
    const logo = await upload(ts, platform, '/file/image/upload', png, 'logo.png');
    expect(logo.body.code, logo.body.message).toBe(0);
    const made = await platform.call('/organization/create', {
      code: 'S3ORG',
      name: 'Cloud Crates',
      entryCode: 'Cloud-Crates',
      smallLogo: logo.body.data.fileName,
    });
    expect(made.body.code, made.body.message).toBe(0);
    const orgId = made.body.data.id as number;
    expect(await ts.server.storage.getBuffer(objectKey('uploads', orgId, logo.body.data.fileName))).toEqual(png);
    const basic = (await ts.call('/organization/basic', { entryCode: 'CLOUD-CRATES' })).body.data;
    const res = await fetch(ts.url + basic.theme.smallLogo);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    const inside = await platform.fetch('/file/download', { fileName: logo.body.data.fileName }, { orgId });
    expect(inside.status).toBe(200);
  });
});
