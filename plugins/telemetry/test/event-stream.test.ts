import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_A, HALL_A, push, scan, seedFleet, startRig, type Caller, type Fleet, type Rig } from './fixtures';
import { openStream } from './stream-client';

let rig: Rig;
let fleetA: Fleet;
let fleetB: Fleet;

/** Opens the stream the way the console does. */
const open = (caller: Caller) => openStream(rig.ts.url, caller);

beforeAll(async () => {
  rig = await startRig();
  fleetA = await seedFleet(rig, rig.ts.a, 'A');
  fleetB = await seedFleet(rig, rig.ts.b, 'B');
});
afterAll(async () => rig?.close());

describe('live event stream', () => {
  it('refuses a caller without a valid session', async () => {
    const res = await fetch(`${rig.ts.url}/api/events/stream`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe(10006);
    const forged = await fetch(`${rig.ts.url}/api/events/stream`, {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json', Token: 'nope' },
    });
    expect(forged.status).toBe(401);
    // a user of organisation B cannot ask for organisation A's stream
    const other = await fetch(`${rig.ts.url}/api/events/stream`, {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json', Token: rig.ts.b.token, OrgId: String(rig.ts.orgA) },
    });
    expect(other.status).toBe(403);
  });

  it('pushes new alerts and device/carrier changes to the organisation only, and to warehouse-restricted users for their warehouses only', async () => {
    const restrictedB = await rig.ts.callerFor(await rig.ts.addUser(rig.ts.orgA, 'carol', { warehouseIds: [fleetA.warehouseB] }), rig.ts.orgA);
    const restrictedA = await rig.ts.callerFor(await rig.ts.addUser(rig.ts.orgA, 'dave', { warehouseIds: [fleetA.warehouseA] }), rig.ts.orgA);
    const a = await open(rig.ts.a);
    const b = await open(rig.ts.b);
    const onlyB = await open(restrictedB);
    const onlyA = await open(restrictedA);
    await a.waitFor((e) => e.event === 'ready');

    await push(rig, `rti/ORGA/gw/${HALL_A}/scan`, scan(HALL_A, Date.now(), { battery: 5 }));
    const alert = await a.waitFor((e) => e.event === 'alert');
    expect(alert.data).toMatchObject({ category: 'beacon', beaconSn: 'B-A', reason: 10, status: 0, warehouseId: fleetA.warehouseA });
    const device = await a.waitFor((e) => e.event === 'device');
    expect(device.data).toMatchObject({ kind: 'beacon', id: fleetA.beaconId, battery: 5, status: 10 });
    await onlyA.waitFor((e) => e.event === 'alert');

    // a gate pass: the carrier's status change and the in/out row are pushed too
    await push(rig, `rti/ORGA/gw/${GATE_A}/scan`, scan(GATE_A, Date.now() + 1000));
    const carrier = await a.waitFor((e) => e.event === 'carrier' && e.data.transportStatus === 20);
    expect(carrier.data).toMatchObject({ id: fleetA.carrierId, sn: 'C-A', warehouseId: null });
    const inout = await a.waitFor((e) => e.event === 'inout');
    expect(inout.data).toMatchObject({ carrierId: fleetA.carrierId, direction: 20, warehouseId: fleetA.warehouseA });
    await onlyA.waitFor((e) => e.event === 'inout');

    await push(rig, `rti/ORGB/gw/${HALL_A}/scan`, scan(HALL_A, Date.now(), { battery: 90 }));
    await b.waitFor((e) => e.event === 'device' && e.data.id === fleetB.beaconId);

    expect(
      b.events.some(
        (e) =>
          e.event === 'alert' ||
          e.event === 'inout' ||
          (e.event === 'device' && e.data.id === fleetA.beaconId) ||
          (e.event === 'carrier' && e.data.id === fleetA.carrierId),
      ),
    ).toBe(false);
    expect(a.events.some((e) => e.event === 'device' && e.data.id === fleetB.beaconId)).toBe(false);
    expect(onlyB.events.some((e) => e.event === 'alert' || e.event === 'device' || e.event === 'inout')).toBe(false);
    for (const s of [a, b, onlyA, onlyB]) s.close();
    // closed streams leave no listeners behind
    await new Promise((r) => setTimeout(r, 200));
    expect(rig.rt.bus.listeners()).toBe(0);
  });
});
