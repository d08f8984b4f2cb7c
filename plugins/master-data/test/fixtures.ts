/** Shared set-up: a real server with this plugin on a temp database, and basic rows per org. */
import { sampleBody } from '../../../server/test/support/samples';
import { startTestServer, type Caller, type TestServer } from '../../../server/test/support/test-server';

export type { Caller, TestServer };

export const startWithPlugin = () => startTestServer({ plugins: ['master-data'] });

/** code 0 or a failed expectation naming the call and message. */
export async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

export interface Basics {
  deviceModelId: number;
  projectId: number;
  carrierCodeId: number;
  warehouseId: number;
  beacons: number[];
  gpsId: number;
}

let n = 100;

/** A device model, project, carrier code, warehouse, three beacons and one GPS device. */
export async function seedBasics(ts: TestServer, caller: Caller, tag: string): Promise<Basics> {
  const meta = ts.server.metadata;
  const deviceModelId = (await ok(caller, '/device-model/create', { name: `Model ${tag}` })).id;
  const projectId = (await ok(caller, '/project/create', { name: `Project ${tag}` })).id;
  const carrierCodeId = (await ok(caller, '/carrier-code/create', { code: `CC-${tag}`, name: `Box ${tag}`, projectId, type: 10, available: true })).id;
  const warehouseId = (await ok(caller, '/warehouse/create', { code: `WH-${tag}`, name: `Warehouse ${tag}`, visibleInMap: true })).id;
  const beacons: number[] = [];
  for (let i = 1; i <= 3; i++) {
    const mac = `AA:BB:CC:DD:${String(10 + i).padStart(2, '0')}:${((n++ % 90) + 10).toString()}`;
    beacons.push((await ok(caller, '/device-beacon/create', { sn: `B-${tag}-${i}`, mac, deviceModelId })).id);
  }
  const gpsBody = { ...sampleBody(meta.resources['device-gps'], meta, n++, { 'device-model': deviceModelId }), sn: `G-${tag}` };
  const gpsId = (await ok(caller, '/device-gps/create', gpsBody)).id;
  return { deviceModelId, projectId, carrierCodeId, warehouseId, beacons, gpsId };
}
