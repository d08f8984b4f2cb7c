/**
 * Imports survive the death of the instance running them (issue 22). The file is kept in the
 * object store (s3rver, a real S3 server process) and the job's cursor, counts and refused
 * rows are saved with every part in the transaction that wrote it, so a live instance takes a
 * dead instance's job over once its heartbeat is stale and resumes it after the last saved
 * row: every row imported exactly once, every refused row reported once, with the reason it
 * would have had in one run (a key repeated across the takeover is still "repeated in the
 * file"). Runs on SQLite, and on MariaDB when TEST_MYSQL_URL is set (npm test's MariaDB stage).
 *
 * - a second API instance in its own process is killed (SIGKILL) mid-import; this one finishes;
 * - an instance that stops (close) gives its job up at once and another resumes it;
 * - an instance restarted on the same data folder resumes its own job (local storage, `npm start`);
 * - a run whose job was taken over writes nothing more;
 * - an object store that is down refuses the upload with 503, nothing kept;
 * - a refused row with long cells is kept whole; a job whose file is gone is closed, not left running.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model, ModelStatic } from 'sequelize';
import { Op } from 'sequelize';
import type { StorageConfig } from '../src/files/storage';
import { createServer, type RtiServer } from '../src/index';
import { startChildServer, type ChildServer } from './support/child-server';
import { s3Storage, startS3rver, type RunningS3 } from './support/s3';
import { startTestServer, type Caller, type TestServer } from './support/test-server';
import { metadataWithCodes, tempDataDir, xlsx, type ImportResult } from './import-fixtures';

const HEARTBEAT_MS = 300;
const STALE_MS = 2_000;
const BUCKET = 'rti-imports';

let s3: RunningS3;
let ts: TestServer;
let jobs: ModelStatic<Model>;
const extra: RtiServer[] = [];

const storage = (): StorageConfig => s3Storage(s3, BUCKET);
const instanceConfig = (instanceId: string, dataDir = tempDataDir(), store: StorageConfig = storage()) => ({
  dataDir,
  instanceId,
  storage: store,
  importHeartbeatMs: HEARTBEAT_MS,
  importStaleMs: STALE_MS,
});

beforeAll(async () => {
  s3 = await startS3rver();
  ts = await startTestServer({ metadata: metadataWithCodes(), config: instanceConfig('api-a') });
  jobs = ts.server.db.sequelize.models.importJob;
  expect((await ts.a.call('/device-model/create', { name: 'DM-1' })).body.code).toBe(0);
}, 90_000);
afterAll(async () => {
  for (const s of extra) await s.close().catch(() => undefined);
  await ts?.close();
  await s3?.cleanup();
});

const mac = (prefix: number, i: number) =>
  ['AA', prefix, Math.floor(i / 65536), Math.floor(i / 256) % 256, i % 256, 1]
    .map((x) => (typeof x === 'number' ? x.toString(16).padStart(2, '0') : x))
    .join(':')
    .toUpperCase();

/**
 * `n` rows under `tag`: every 500th row names a device model that does not exist (10), the
 * row at 5/6 of the file repeats an early row's serial number (20) and the one after it an
 * early row's MAC (40) — both after any takeover point, so they are judged against rows a
 * previous run imported.
 */
function plan(tag: string, prefix: number, n: number) {
  const rows = Array.from({ length: n }, (_, i) => [`${tag}-${i}`, mac(prefix, i), i % 500 === 250 ? 'DM-NONE' : 'DM-1']);
  const dupSn = Math.floor((n * 5) / 6);
  rows[dupSn][0] = `${tag}-3`;
  rows[dupSn + 1][1] = mac(prefix, 7);
  const refused = new Map<number, number>();
  for (let i = 0; i < n; i++) if (i % 500 === 250) refused.set(i + 2, 10);
  refused.set(dupSn + 2, 20);
  refused.set(dupSn + 3, 40);
  const written = rows.filter((_, i) => !refused.has(i + 2)).map((r) => r[0]);
  return { rows, refused, written };
}

async function uploadTo(url: string, caller: Caller, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'beacons.xlsx');
  const res = await fetch(`${url}/api/device-beacon/import`, { method: 'POST', headers: { Token: caller.token, OrgId: String(caller.orgId) }, body: form });
  const body = (await res.json()) as { code: number; message: string; data: { importId: number } };
  expect(body.code, body.message).toBe(0);
  return body.data.importId;
}

/** The job's status through an instance's API. */
async function statusVia(url: string, caller: Caller, importId: number): Promise<ImportResult> {
  const res = await fetch(`${url}/api/device-beacon/import/status`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Token: caller.token, OrgId: String(caller.orgId) },
    body: JSON.stringify({ importId }),
  });
  const body = (await res.json()) as { code: number; message: string; data: ImportResult };
  expect(body.code, body.message).toBe(0);
  return body.data;
}
const status = (importId: number) => statusVia(ts.url, ts.a, importId);

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 60_000, every = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * The job as it ended (read through `via`, default this instance), with the rows in the table:
 * each written row exactly once, each refused row reported once with its code.
 */
async function expectExact(
  importId: number,
  p: ReturnType<typeof plan>,
  tag: string,
  via: { server: RtiServer; url: string; a: Caller } = { server: ts.server, url: ts.url, a: ts.a },
) {
  const done = await until('the job to finish', async () => {
    const s = await statusVia(via.url, via.a, importId);
    return s.status === 20 ? s : null;
  });
  expect(done.message).toBeNull();
  expect([done.processedVolume, done.successVolume, done.failedVolume]).toEqual([p.rows.length, p.written.length, p.refused.size]);
  expect(done.importErrors.map((e) => [e.row, e.code])).toEqual([...p.refused.entries()].sort((x, y) => x[0] - y[0]));
  const stored = (await via.server.db.models['device-beacon'].findAll({
    attributes: ['sn'],
    where: { sn: { [Op.like]: `${tag}-%` } },
    raw: true,
  })) as unknown as Array<{ sn: string }>;
  const sns = stored.map((r) => r.sn);
  expect(sns.length).toBe(p.written.length);
  expect(new Set(sns).size).toBe(sns.length);
  expect(new Set(sns)).toEqual(new Set(p.written));
  // the refused rows of the running job were gathered into the job
  expect(await via.server.db.sequelize.models.importJobError.count({ where: { jobId: importId } })).toBe(0);
  return done;
}

const importObjects = async () => {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  try {
    const out = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'imports/' }));
    return (out.Contents ?? []).map((o) => o.Key);
  } finally {
    client.destroy();
  }
};

const jobRow = async (id: number) => (await jobs.findByPk(id))!;

describe('an import outlives the instance running it', () => {
  it('a second instance is killed mid-import (SIGKILL); this one takes the job over and finishes it, each row once', async () => {
    const p = plan('KILL', 0x11, 6000);
    let child: ChildServer<{ url: string; pid: number }> | null = null;
    try {
      child = await startChildServer<{ url: string; pid: number }>({
        script: 'test/support/import-instance.ts',
        name: 'import instance api-b',
        env: {
          TEST_DATABASE_URL: ts.db.url,
          TEST_DATA_DIR: tempDataDir(),
          TEST_INSTANCE_ID: 'api-b',
          TEST_STORAGE: JSON.stringify(storage()),
          TEST_HEARTBEAT_MS: String(HEARTBEAT_MS),
          TEST_STALE_MS: String(STALE_MS),
          TEST_ROW_DELAY_MS: '2',
        },
      });
      const importId = await uploadTo(child.ready.url, ts.a, await xlsx(['sn', 'mac', 'deviceModelId'], p.rows));
      expect((await jobRow(importId)).get('instanceId')).toBe('api-b');
      expect(await importObjects()).toHaveLength(1);
      // status answers from this instance while the other runs the job
      const before = await until(
        'api-b to import some rows',
        async () => {
          const s = await status(importId);
          return s.processedVolume >= 1_500 ? s : null;
        },
        60_000,
        50,
      );
      child.child.kill('SIGKILL');
      await until('api-b to die', async () => child!.exited());
      const killedAt = await jobRow(importId);
      const cursor = Number(killedAt.get('cursorRow'));
      expect(before.status).toBe(10);
      expect(Number(killedAt.get('processedVolume'))).toBeLessThan(p.rows.length * 0.8);
      expect(cursor).toBeGreaterThan(1_500);
      // a user never sees it failed: still processing until this instance took it over and finished it
      const seen = new Set<number>();
      const taken = await until(
        'api-a to take the job over',
        async () => {
          const s = await status(importId);
          seen.add(s.status);
          const row = await jobRow(importId);
          return row.get('instanceId') === 'api-a' ? row : null;
        },
        STALE_MS * 5,
        50,
      );
      expect([...seen]).toEqual([10]);
      expect(Number(taken.get('cursorRow'))).toBeGreaterThanOrEqual(cursor);
      const done = await expectExact(importId, p, 'KILL');
      expect(done.totalVolume).toBe(p.rows.length);
      expect((await jobRow(importId)).get('instanceId')).toBe('api-a');
      // the finished job's file is gone from the store
      expect(await importObjects()).toEqual([]);
      console.log(
        `[import-takeover] ${ts.db.dialect}: api-b killed at row ${cursor} (${Number(killedAt.get('processedVolume'))} of ${p.rows.length} processed); api-a finished with ${done.successVolume} written, ${done.failedVolume} refused`,
      );
    } finally {
      if (child && !child.exited()) child.child.kill('SIGKILL');
    }
  }, 120_000);

  it('an instance that stops gives its job up at once: another resumes it before the stale bound', async () => {
    const p = plan('STOP', 0x12, 3000);
    const c = await createServer({
      databaseUrl: ts.db.url,
      plugins: false,
      logError: () => undefined,
      metadata: metadataWithCodes(),
      config: instanceConfig('api-c'),
    });
    extra.push(c);
    c.hooks.before('create', 'device-beacon', () => new Promise((r) => setTimeout(r, 2)));
    const { url } = await c.listen(0);
    const importId = await uploadTo(url, ts.a, await xlsx(['sn', 'mac', 'deviceModelId'], p.rows));
    await until('api-c to import some rows', async () => (await status(importId)).processedVolume >= 500, 60_000, 50);
    await c.close();
    const stopped = await jobRow(importId);
    expect(Number(stopped.get('status'))).toBe(10);
    expect((stopped.get('heartbeatAt') as Date).getTime()).toBe(0);
    const givenUp = Date.now();
    await until('api-a to take the job over', async () => (await jobRow(importId)).get('instanceId') === 'api-a', STALE_MS * 5, 20);
    expect(Date.now() - givenUp).toBeLessThan(STALE_MS);
    await expectExact(importId, p, 'STOP');
  }, 120_000);

  it('an instance restarted on its data folder resumes its own job (local storage, one machine)', async () => {
    const p = plan('BACK', 0x13, 3000);
    const dataDir = tempDataDir();
    // one machine: its own database and data folder, no other instance
    const config = { ...instanceConfig('api-d', dataDir, { kind: 'local' }) };
    const one = await startTestServer({ metadata: metadataWithCodes(), config });
    let again: RtiServer | null = null;
    try {
      expect((await one.a.call('/device-model/create', { name: 'DM-1' })).body.code).toBe(0);
      one.server.hooks.before('create', 'device-beacon', () => new Promise((r) => setTimeout(r, 2)));
      const importId = await uploadTo(one.url, one.a, await xlsx(['sn', 'mac', 'deviceModelId'], p.rows));
      await until('api-d to import some rows', async () => (await statusVia(one.url, one.a, importId)).processedVolume >= 500, 60_000, 50);
      await one.server.close();
      again = await createServer({ databaseUrl: one.db.url, plugins: false, logError: () => undefined, metadata: metadataWithCodes(), config });
      const { url } = await again.listen(0);
      const done = await expectExact(importId, p, 'BACK', { server: again, url, a: one.a });
      expect(done.totalVolume).toBe(p.rows.length);
      expect((await again.db.sequelize.models.importJob.findByPk(importId))!.get('instanceId')).toBe('api-d');
    } finally {
      await again?.close();
      await one.db.drop();
    }
  }, 120_000);

  it("an object store that is down: the upload answers 503 in the caller's language, no job, no file kept", async () => {
    const before = await jobs.count();
    const bytes = await xlsx(['sn', 'mac', 'deviceModelId'], [['DOWN-1', mac(0x15, 1), 'DM-1']]);
    await s3.stop();
    try {
      for (const [language, text] of [
        ['en-US', 'File storage is unavailable'],
        ['zh-CN', '文件存储暂时不可用'],
      ]) {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(bytes)]), 'down.xlsx');
        const res = await fetch(`${ts.url}/api/device-beacon/import`, {
          method: 'POST',
          headers: { Token: ts.a.token, OrgId: String(ts.a.orgId), Language: language },
          body: form,
        });
        const body = (await res.json()) as { code: number; message: string };
        expect(res.status).toBe(503);
        expect(body.message).toContain(text);
      }
    } finally {
      await s3.start();
    }
    expect(await jobs.count()).toBe(before);
    const imports = join(ts.server.config.dataDir, 'imports');
    expect(existsSync(imports) ? readdirSync(imports).filter((f) => f.startsWith('.upload-')) : []).toEqual([]);
    expect(await importObjects()).toEqual([]);
  }, 60_000);

  it('a refused row is kept whole with its cells, however long (beyond 64 KB: LONGTEXT on MariaDB)', async () => {
    const long = (c: string) => c.repeat(32_000);
    const rows = [
      [long('L'), long('n'), mac(0x16, 1), 'DM-1', long('r')],
      ['LONG-2', 'n', mac(0x16, 2), 'DM-1'],
    ];
    const importId = await uploadTo(ts.url, ts.a, await xlsx(['sn', 'name', 'mac', 'deviceModelId', 'remark'], rows));
    const done = await until('the job to finish', async () => {
      const s = await status(importId);
      return s.status === 20 ? s : null;
    });
    expect([done.message, done.successVolume, done.failedVolume]).toEqual([null, 1, 1]);
    expect(done.importErrors.map((e) => e.row)).toEqual([2]);
    const result = await ts.a.fetch('/device-beacon/import/result', { importId });
    expect(result.status).toBe(200);
  }, 60_000);

  it("a dead instance's job whose file is gone from the store is closed as interrupted, not left processing", async () => {
    const context = {
      language: 'en-US',
      user: { id: ts.a.userId, username: 'alice', sysOrgUser: false },
      orgId: ts.orgA,
      orgIds: [ts.orgA],
      warehouseIds: null,
    };
    const gone = await jobs.create({
      orgId: ts.orgA,
      userId: ts.a.userId,
      resource: 'device-beacon',
      fileName: 'gone.xlsx',
      language: 'en-US',
      status: 10,
      totalVolume: 10,
      instanceId: 'api-gone',
      heartbeatAt: new Date(Date.now() - STALE_MS * 2),
      claim: 'old',
      fileKey: `imports/${ts.orgA}/${'0'.repeat(32)}.xlsx`,
      context: JSON.stringify(context),
    });
    const closed = await until(
      'the job to be closed',
      async () => {
        const s = await status(Number(gone.get('id')));
        return s.status === 20 ? s : null;
      },
      STALE_MS * 5,
      50,
    );
    expect(closed.message).toMatch(/interrupted/);
  }, 60_000);

  it('a run whose job was taken over writes nothing more', async () => {
    const logs: string[] = [];
    const e = await createServer({
      databaseUrl: ts.db.url,
      plugins: false,
      logError: (m) => void logs.push(m),
      metadata: metadataWithCodes(),
      config: { ...instanceConfig('api-e'), importStaleMs: 600_000 },
    });
    extra.push(e);
    let delayMs = 2;
    e.hooks.before('create', 'device-beacon', () => new Promise((r) => setTimeout(r, delayMs)));
    const { url } = await e.listen(0);
    let tag = 'ZOMB0';
    const count = () => ts.server.db.models['device-beacon'].count({ where: { sn: { [Op.like]: `${tag}-%` } } });
    // on a loaded machine api-e may finish the file before the test takes the job: then again, slower
    let importId = 0;
    for (let attempt = 0; ; attempt++) {
      tag = `ZOMB${attempt}`;
      const p = plan(tag, attempt === 0 ? 0x14 : 0x20 + attempt, 3000);
      importId = await uploadTo(url, ts.a, await xlsx(['sn', 'mac', 'deviceModelId'], p.rows));
      await until('api-e to import some rows', async () => (await status(importId)).processedVolume >= 500, 60_000, 50);
      // another instance claims it (as a takeover would, api-e being taken for dead), holding it without running it
      const [taken] = await jobs.update(
        { claim: 'someone-else', instanceId: 'api-z', heartbeatAt: new Date(Date.now() + 3_600_000) },
        { where: { id: importId, status: 10 } },
      );
      if (taken === 1) break;
      expect(attempt, 'api-e finished the file three times before it could be taken').toBeLessThan(2);
      delayMs *= 4;
    }
    const atTakeover = await count();
    await e.imports.idle();
    expect(logs.some((m) => m.includes(`import job ${importId} was taken over`))).toBe(true);
    const row = await jobRow(importId);
    expect(await count()).toBe(atTakeover);
    expect(await count()).toBe(Number(row.get('successVolume')));
    expect(Number(row.get('status'))).toBe(10);
    await jobs.update({ status: 20 }, { where: { id: importId } });
  }, 120_000);
});
