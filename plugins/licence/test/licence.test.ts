/**
 * Licence through the real calls: signed-file checks (shape, signature, host, dates), who may
 * install, verify answers, renewal rules, and the limits enforced on create with 10014.
 */
import { generateKeyPairSync } from 'node:crypto';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesByRow, importFile, tempDataDir, xlsx } from '../../../server/test/import-fixtures';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { signLicence, type Licence } from '../server/licence-file';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const licence = (over: Partial<Licence> = {}): Licence => ({
  licenceNo: 'L-1',
  organizationId: null,
  organizationQuantity: 2,
  carrierQuantity: 2,
  hostName: hostname(),
  category: 20,
  effectiveDate: day(-1),
  expirationDate: day(30),
  ...over,
});

let ts: TestServer;
let carrierCodeId: number;
let n = 0;
const newCarrier = () => ts.a.call('/carrier/create', { sn: `LC-${++n}`, carrierCodeId });

beforeAll(async () => {
  process.env.LICENCE_PUBLIC_KEY = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  delete process.env.LICENCE_REQUIRED;
  ts = await startTestServer({ plugins: ['licence'], config: { dataDir: tempDataDir() } });
  const projectId = (await ts.a.call('/project/create', { name: 'P' })).body.data.id;
  carrierCodeId = (await ts.a.call('/carrier-code/create', { code: 'CC', name: 'Box', projectId, type: 10, available: true })).body.data.id;
});
afterAll(async () => {
  delete process.env.LICENCE_PUBLIC_KEY;
  await ts?.close();
});

describe('licence', () => {
  it('is not enforced before any licence is installed; verify answers null', async () => {
    expect((await ts.a.call('/licence/verify')).body).toMatchObject({ code: 0, data: null });
    expect((await newCarrier()).body.code).toBe(0);
  });

  it('enforces an installed licence that has since expired', async () => {
    const expired = licence({ effectiveDate: day(-60), expirationDate: day(-1) });
    await ts.server.db.sequelize
      .getQueryInterface()
      .bulkInsert('sys_licence', [{ ...expired, content: signLicence(expired, privatePem), installedBy: null, createdAt: new Date(), updatedAt: new Date() }]);
    // another instance's install is seen once the "none installed" cache (2 s) runs out
    await new Promise((r) => setTimeout(r, 2100));
    const got = await newCarrier();
    expect(got.body.code).toBe(10014);
    expect(got.body.message).toBe(`The licence expired on ${day(-1)}`);
    const verify = (await ts.a.call('/licence/verify')).body.data;
    expect(verify).toMatchObject({ valid: false, remainingDays: -1, licenceNo: 'L-1' });
  });

  it('lets only platform administrators import', async () => {
    const got = await ts.a.call('/licence/import', { content: signLicence(licence(), privatePem) });
    expect(got.status).toBe(403);
    expect(got.body.message).toBe('Only platform administrators can manage the licence');
    await ts.server.db.models.user.update({ sysOrgUser: true }, { where: { name: 'alice' } });
  });

  it('refuses malformed, tampered, foreign-host and expired files', async () => {
    const bad = async (content: unknown) => (await ts.a.call('/licence/import', { content })).body;
    expect(await bad('{')).toMatchObject({ code: 10001, message: 'The licence file is not readable: not JSON' });
    expect((await bad(JSON.stringify({ licence: { licenceNo: 'x' }, signature: 'y' }))).message).toContain('invalid');
    const tampered = JSON.parse(signLicence(licence(), privatePem));
    tampered.licence.carrierQuantity = 1_000_000;
    expect(await bad(JSON.stringify(tampered))).toMatchObject({ code: 10001, message: 'The licence signature is not valid' });
    const other = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect((await bad(signLicence(licence(), other))).message).toBe('The licence signature is not valid');
    expect((await bad(signLicence(licence({ hostName: 'elsewhere.example' }), privatePem))).message).toBe(
      `The licence is issued for host elsewhere.example, this server is ${hostname()}`,
    );
    expect((await bad(signLicence(licence({ expirationDate: day(-2) }), privatePem))).message).toContain('expired');
    expect((await bad(signLicence(licence({ effectiveDate: day(3) }), privatePem))).message).toBe(`The licence takes effect on ${day(3)}`);
    const zh = await ts.a.call('/licence/import', { content: '{' }, { language: 'zh-CN' });
    expect(zh.body.message).toContain('许可证');
  });

  it('imports a valid licence, answers it in verify, and enforces both quantities', async () => {
    const got = await ts.a.call('/licence/import', { content: signLicence(licence(), privatePem) });
    expect(got.body.code, got.body.message).toBe(0);
    expect(got.body.data).toMatchObject({ valid: true, remainingDays: 30, carrierQuantity: 2, usage: { organizations: 2, carriers: 1 } });
    expect((await newCarrier()).body.code).toBe(0);
    const over = await newCarrier();
    expect(over.body).toMatchObject({ code: 10014, message: 'The licence allows at most 2 carriers' });
    const org = await ts.a.call('/organization/create', { code: 'ORGC', name: 'Org C', entryCode: 'orgc' });
    expect(org.body).toMatchObject({ code: 10014, message: 'The licence allows at most 2 organisations' });
    const ja = await ts.a.call('/carrier/create', { sn: 'JA-1', carrierCodeId }, { language: 'ja-JP' });
    expect(ja.body.message).toBe('ライセンスで許可されるキャリアは最大 2 件です');
    const verify = (await ts.b.call('/licence/verify')).body.data;
    expect(verify).toMatchObject({ valid: true, licenceNo: 'L-1', usage: { carriers: 2 } });
    // a dry run of another file leaves the installed licence alone
    const dry = (await ts.a.call('/licence/verify', { content: signLicence(licence({ licenceNo: 'L-X', carrierQuantity: 9 }), privatePem) })).body.data;
    expect(dry).toMatchObject({ valid: true, licenceNo: 'L-X', installedAt: null });
    expect((await newCarrier()).body.code).toBe(10014);
  });

  it('update renews the installed licence only', async () => {
    const foreign = await ts.a.call('/licence/update', { content: signLicence(licence({ hostName: '*', carrierQuantity: 5 }), privatePem) });
    expect(foreign.body).toMatchObject({ code: 10001, message: 'An update must renew the installed licence L-1 (same licensee and host)' });
    const older = await ts.a.call('/licence/update', { content: signLicence(licence({ expirationDate: day(10) }), privatePem) });
    expect(older.body.message).toBe('The licence is not newer than the installed one');
    const renewed = await ts.a.call('/licence/update', {
      content: signLicence(licence({ licenceNo: 'L-2', carrierQuantity: 3, expirationDate: day(365) }), privatePem),
    });
    expect(renewed.body).toMatchObject({ code: 0, data: { licenceNo: 'L-2', remainingDays: 365 } });
    expect((await newCarrier()).body.code).toBe(0);
    expect((await newCarrier()).body.code).toBe(10014);
  });

  it('counts every row of a bulk import against the carrier quantity', async () => {
    await ts.a.call('/licence/update', { content: signLicence(licence({ licenceNo: 'L-2b', carrierQuantity: 5, expirationDate: day(365) }), privatePem) });
    const file = await xlsx(
      ['sn', 'carrierCodeId'],
      [
        ['BULK-1', 'CC'],
        ['BULK-2', 'CC'],
        ['BULK-3', 'CC'],
        ['BULK-4', 'CC'],
      ],
    );
    const result = await importFile(ts, ts.a, 'carrier', file);
    expect(result.successVolume).toBe(2);
    expect(Object.keys(codesByRow(result))).toEqual(['4', '5']);
    expect(result.importErrors[0].reason).toBe('The licence allows at most 5 carriers');
  });

  it('a permanent licence has no expiry and no remaining days', async () => {
    const got = await ts.a.call('/licence/update', {
      content: signLicence(licence({ licenceNo: 'L-3', category: 30, expirationDate: null, carrierQuantity: 10 }), privatePem),
    });
    expect(got.body).toMatchObject({ code: 0, data: { category: 30, remainingDays: null, expirationDate: null } });
    expect((await newCarrier()).body.code).toBe(0);
  });
});
