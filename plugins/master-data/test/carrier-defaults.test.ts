/**
 * A carrier inherits project and carrier type from its carrier code when they are not given
 * (issue 10): on create and on import (one chunk, several codes); given values are kept.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { codesByRow, importFile, tempDataDir, xlsx } from '../../../server/test/import-fixtures';
import { startTestServer } from '../../../server/test/support/test-server';
import { ok, seedBasics, type Basics, type TestServer } from './fixtures';

let ts: TestServer;
let a: Basics;
let otherProject: number;
let otherCode: number;

beforeAll(async () => {
  ts = await startTestServer({ plugins: ['master-data'], config: { dataDir: tempDataDir() } });
  a = await seedBasics(ts, ts.a, 'A');
  otherProject = (await ok(ts.a, '/project/create', { name: 'Project Other' })).id;
  otherCode = (await ok(ts.a, '/carrier-code/create', { code: 'CC-OTHER', name: 'Crate', projectId: otherProject, type: 20, available: true })).id;
});
afterAll(() => ts?.close());

const carrierBySn = async (sn: string) => (await ok(ts.a, '/carrier/list', { sn })).list.find((c: any) => c.sn === sn);

it('create: project and type come from the carrier code when left out', async () => {
  const { id } = await ok(ts.a, '/carrier/create', { sn: 'INH-1', carrierCodeId: otherCode });
  const row = await ok(ts.a, '/carrier', { id });
  expect([row.projectId, row.type]).toEqual([otherProject, 20]);
  expect(row.projectIdLabel).toBe('Project Other');
});

it('create: given values win, an empty one is filled', async () => {
  const { id } = await ok(ts.a, '/carrier/create', { sn: 'INH-2', carrierCodeId: otherCode, projectId: a.projectId, type: null });
  const row = await ok(ts.a, '/carrier', { id });
  expect([row.projectId, row.type]).toEqual([a.projectId, 20]);
});

it('import: each row inherits from its own code, given cells are kept', async () => {
  const file = await xlsx(
    ['sn', 'carrierCodeId', 'projectId'],
    [
      ['INH-I1', 'CC-A'],
      ['INH-I2', 'CC-OTHER'],
      ['INH-I3', 'CC-OTHER', 'Project A'],
    ],
  );
  const result = await importFile(ts, ts.a, 'carrier', file);
  expect(codesByRow(result)).toEqual({});
  expect(result.successVolume).toBe(3);
  const [i1, i2, i3] = [await carrierBySn('INH-I1'), await carrierBySn('INH-I2'), await carrierBySn('INH-I3')];
  expect([i1.projectId, i1.type]).toEqual([a.projectId, 10]);
  expect([i2.projectId, i2.type]).toEqual([otherProject, 20]);
  expect([i3.projectId, i3.type]).toEqual([a.projectId, 20]);
});
