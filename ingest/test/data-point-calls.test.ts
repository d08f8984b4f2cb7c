import fs from 'node:fs';
import type { CallDef, RequestContext } from '@rti/server/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPointCalls } from '../src/http/data-point-calls';
import { SegmentTelemetryStore } from '../src/store/segment-store';
import { tempDir } from './helpers/services';

const T0 = Date.UTC(2026, 10, 22, 6, 0, 0);
let dir: string;
let store: SegmentTelemetryStore;
let calls: Map<string, CallDef>;

const ctx = (orgId: number | null): RequestContext => ({
  language: 'en-US',
  user: { id: 1, username: 'u', sysOrgUser: false },
  orgId,
  orgIds: orgId ? [orgId] : [],
  warehouseIds: null,
  via: 'session',
});
const call = (path: string, body: Record<string, unknown>, orgId: number | null = 1) =>
  calls.get(path)!.handler({ body, ctx: ctx(orgId), req: {} as never, res: {} as never });

beforeAll(async () => {
  dir = tempDir('dp-calls');
  store = new SegmentTelemetryStore({ dir });
  await store.init();
  await store.write([
    {
      series: 'beacon',
      rows: Array.from({ length: 30 }, (_, i) => ({
        org: 1,
        mac: 'E2C56DB5DFFB',
        time: T0 + i * 60000,
        gatewayMac: i % 2 ? 'AC233FC0A1B2' : 'AC233FC0A1B3',
        rssi: -60,
        battery: 80,
      })),
    },
    {
      series: 'gps',
      rows: [
        { org: 1, sn: 'GT-1', time: T0, dataType: 10, longitude: 1, latitude: 2 },
        { org: 1, sn: 'GT-1', time: T0 + 1000, dataType: 20, eventCode: '018' },
      ],
    },
  ]);
  calls = new Map(dataPointCalls(store).map((c) => [c.path, c]));
});

afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('data-points calls', () => {
  it('lists a device within a time range, newest first, with ISO times', async () => {
    const r = (await call('/data-points/beacon/list', {
      mac: 'e2:c5:6d:b5:df:fb',
      time: [T0 + 10 * 60000, new Date(T0 + 19 * 60000).toISOString()],
      page: 1,
      limit: 5,
    })) as { list: Array<Record<string, unknown>>; total: number };
    expect(r.total).toBe(10);
    expect(r.list).toHaveLength(5);
    expect(r.list[0]).toMatchObject({ mac: 'E2C56DB5DFFB', time: new Date(T0 + 19 * 60000).toISOString(), rssi: -60 });
    expect(r.list[0]).not.toHaveProperty('org');
  });

  it('answers the newest GPS point with the SPEC ts field, scoped to the organisation', async () => {
    expect(await call('/data-points/gps', { sn: 'GT-1' })).toMatchObject({ sn: 'GT-1', dataType: 20, eventCode: '018', ts: new Date(T0 + 1000).toISOString() });
    await expect(call('/data-points/gps', { sn: 'GT-1' }, 2)).rejects.toMatchObject({ code: 10002 });
    await expect(call('/data-points/gps/list', {}, null)).rejects.toMatchObject({ code: 10007 });
  });

  it('refuses malformed filters with a validation error naming the field', async () => {
    await expect(call('/data-points/beacon/list', { time: 'today' })).rejects.toMatchObject({ code: 10001, httpStatus: 400 });
    await expect(call('/data-points/beacon/list', { mac: 'not-a-mac' })).rejects.toMatchObject({ code: 10001 });
    await expect(call('/data-points/beacon/list', { limit: 0 })).rejects.toMatchObject({ code: 10001 });
    // bounded like the generated lists: a page beyond a million, a fraction, a negative one are refused, not queried
    for (const page of [1e300, 2.5, -1, '1e300', 2 ** 31])
      await expect(call('/data-points/beacon/list', { page })).rejects.toMatchObject({ code: 10001, messageKey: 'server.validation.page' });
    await expect(call('/data-points/gps/list', { limit: 1001 })).rejects.toMatchObject({ code: 10001, messageKey: 'server.validation.limit' });
  });
});
