/**
 * The licence banner's call (issue 23 item 7): platform administrators learn, before anything
 * is blocked, that no licence is installed (and what is therefore not enforced), that it will
 * expire soon, or that a quantity is nearly used up — in their language; nobody else is told.
 */
import { generateKeyPairSync } from 'node:crypto';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../server/test/import-fixtures';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';
import { signLicence, type Licence } from '../server/licence-file';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let ts: TestServer;
let platform: Caller;

beforeAll(async () => {
  process.env.LICENCE_PUBLIC_KEY = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  delete process.env.LICENCE_REQUIRED;
  ts = await startTestServer({ plugins: ['licence'], config: { dataDir: tempDataDir() } });
  platform = await ts.callerFor(await ts.addUser(ts.orgA, 'platform', { sysOrgUser: true }), ts.orgA);
});
afterAll(async () => {
  delete process.env.LICENCE_PUBLIC_KEY;
  delete process.env.LICENCE_REQUIRED;
  await ts?.close();
});

describe('licence status', () => {
  it('tells a platform administrator that no licence is installed and what is not enforced', async () => {
    expect((await platform.call('/licence/status')).body.data).toMatchObject({
      state: 'none',
      level: 'warning',
      message: expect.stringContaining('not enforced'),
    });
    expect((await platform.call('/licence/status', {}, { language: 'zh-CN' })).body.data.message).toContain('未安装许可证');
    process.env.LICENCE_REQUIRED = 'true';
    expect((await platform.call('/licence/status')).body.data).toMatchObject({ state: 'none', level: 'error', message: expect.stringContaining('refused') });
    delete process.env.LICENCE_REQUIRED;
  });

  it('tells nobody else', async () => {
    expect((await ts.a.call('/licence/status')).body).toMatchObject({ code: 0, data: null });
  });

  it('warns before an installed licence expires or runs out, and says nothing when all is well', async () => {
    const soon: Licence = {
      licenceNo: 'L-9',
      organizationId: null,
      organizationQuantity: 2,
      carrierQuantity: 1000,
      hostName: hostname(),
      category: 20,
      effectiveDate: day(-1),
      expirationDate: day(10),
    };
    await ts.server.db.sequelize
      .getQueryInterface()
      .bulkInsert('sys_licence', [{ ...soon, content: signLicence(soon, privatePem), installedBy: null, createdAt: new Date(), updatedAt: new Date() }]);
    const got = (await platform.call('/licence/status', {}, { language: 'ja-JP' })).body.data;
    expect(got).toMatchObject({ state: 'attention', level: 'warning' });
    expect(got.message).toContain('あと 10 日');
    // two organisations of two licensed: said too
    expect(got.message).toContain('組織 2 件中 2 件');
    await ts.server.db.sequelize.getQueryInterface().bulkDelete('sys_licence', {});
    const fine: Licence = { ...soon, licenceNo: 'L-10', organizationQuantity: 50, expirationDate: day(300) };
    await ts.server.db.sequelize
      .getQueryInterface()
      .bulkInsert('sys_licence', [{ ...fine, content: signLicence(fine, privatePem), installedBy: null, createdAt: new Date(), updatedAt: new Date() }]);
    expect((await platform.call('/licence/status')).body.data).toBeNull();
  });
});
