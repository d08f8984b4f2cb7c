/** Shared setup for the trucks, info and print tests: two warehouses, boxes, ship orders. */
import type { Caller, TestServer } from '../../../server/test/support/test-server';

export async function ok<T = any>(caller: Caller, path: string, body: unknown = {}): Promise<T> {
  const got = await caller.call<T>(path, body);
  if (got.body.code !== 0) throw new Error(`${path}: ${got.body.code} ${got.body.message}`);
  return got.body.data;
}

export interface World {
  shanghai: number;
  osaka: number;
  codeId: number;
}

let seq = 0;

export async function world(ts: TestServer, caller: Caller = ts.a, tag = 'A'): Promise<World> {
  const projectId = (await ok(caller, '/project/create', { name: `Pool ${tag}` })).id;
  const codeId = (await ok(caller, '/carrier-code/create', { code: `CC-${tag}`, name: `Box ${tag}`, projectId, type: 10, available: true })).id;
  const shanghai = (await ok(caller, '/warehouse/create', { code: `SH${tag}`, name: `Shanghai Hub ${tag}` })).id;
  const osaka = (await ok(caller, '/warehouse/create', { code: `OS${tag}`, name: `Osaka ${tag}` })).id;
  return { shanghai, osaka, codeId };
}

/** A ship order of n new boxes in the shipper warehouse; lines spread over the given containers. */
export async function shipOrder(caller: Caller, w: World, n: number, extra: Record<string, unknown> = {}, containers: string[] = []): Promise<any> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await ok(caller, '/carrier/create', { sn: `TB-${++seq}-${caller.orgId}`, carrierCodeId: w.codeId, warehouseId: w.shanghai, status: 10 })).id);
  return ok(caller, '/ship-order/save', {
    type: 2,
    shipperWarehouseId: w.shanghai,
    receiverWarehouseId: w.osaka,
    ...extra,
    lines: ids.map((carrierId, i) => ({ carrierId, ...(containers.length ? { containerNo: containers[i % containers.length] } : {}) })),
  });
}
