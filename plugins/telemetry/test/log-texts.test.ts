/**
 * Texts the rules write are read in the reader's language (issue 10 "Every language,
 * everywhere"): the remark of a carrier or device log written with an alert, and the live
 * alert event each stream subscriber receives, rendered in that subscriber's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_A, HALL_A, ok, push, scan, seedFleet, startRig, type Caller, type Fleet, type Rig } from './fixtures';
import { openStream, type LiveStream } from './stream-client';

let rig: Rig;
let fleet: Fleet;
const T = Date.now() - 10 * 60_000;

beforeAll(async () => {
  rig = await startRig();
  fleet = await seedFleet(rig, rig.ts.a);
});
afterAll(async () => rig?.close());

/** A stream as the console opens it, in one language (the Language header, like every call). */
const openLive = (caller: Caller, language: string) => openStream(rig.ts.url, caller, language);

async function until<T>(what: string, fn: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const remarks = async (path: string, body: Record<string, unknown>, language: string) =>
  ((await rig.ts.a.call(path, body, { language })).body.data as any).list.filter((l: any) => l.remark).map((l: any) => l.remark as string);

describe('log remarks and live alert events in the reader language', () => {
  it('a live alert event reaches each subscriber in its own language; the stored key is unchanged', async () => {
    const zh = await openLive(rig.ts.a, 'zh-CN');
    const ja = await openLive(rig.ts.a, 'ja-JP');
    const en = await openLive(rig.ts.a, 'en-US');
    try {
      await until('three streams', () => (rig.rt.bus.listeners(rig.ts.orgA) >= 3 ? true : undefined));
      await push(rig, `rti/ORGA/gw/${HALL_A}/scan`, scan(HALL_A, T, { battery: 12 }));
      const alertOf = (s: LiveStream) => until('alert event', () => s.events.find((e) => e.event === 'alert' && e.data.resource === 'device-beacon-alert'));
      expect((await alertOf(zh)).data.message).toBe('电量 12%，低于 20%');
      expect((await alertOf(ja)).data.message).toBe('バッテリー 12%（しきい値 20% 未満）');
      const inEnglish = await alertOf(en);
      expect(inEnglish.data.message).toBe('Battery 12% below 20%');
      expect(inEnglish.data.messageKey).toEqual({ key: 'telemetry.alerts.battery', params: { value: 12, threshold: 20 } });
    } finally {
      for (const s of [zh, ja, en]) s.close();
    }
  });

  it("a device log's remark written by a rule reads in zh-CN and ja-JP, stored as written", async () => {
    const body = { beaconId: fleet.beaconId };
    expect(await remarks('/device-beacon-log/list', body, 'zh-CN')).toEqual(['电量 12%，低于 20%']);
    expect(await remarks('/device-beacon-log/list', body, 'ja-JP')).toEqual(['バッテリー 12%（しきい値 20% 未満）']);
    expect(await remarks('/device-beacon-log/list', body, 'en-US')).toEqual(['Battery 12% below 20%']);
    const [stored] = (await rig.ts.server.db.sequelize.query(
      `SELECT remark FROM device_beacon_log WHERE beacon_id = ${Number(fleet.beaconId)} AND remark IS NOT NULL`,
    )) as [Array<{ remark: string }>, unknown];
    expect(stored.map((r) => r.remark)).toEqual(['battery 12% below 20%']);
  });

  it("a carrier log's remark written by a rule (transport timeout) reads in zh-CN and ja-JP", async () => {
    // the carrier leaves warehouse A1 through its gate; the route to A2 takes 180 min
    for (let k = 0; k < 2; k++) await push(rig, `rti/ORGA/gw/${GATE_A}/scan`, scan(GATE_A, T + 60_000 + k * 1000));
    expect(await ok(rig.ts.a, '/carrier', { id: fleet.carrierId })).toMatchObject({ transportStatus: 20 });
    rig.rt.engine.tick(T + 4 * 60 * 60_000);
    await rig.rt.flush();
    const body = { carrierId: fleet.carrierId };
    const en = await remarks('/carrier-log/list', body, 'en-US');
    expect(en).toHaveLength(1);
    expect(en[0]).toMatch(/Warehouse A1/);
    const zh = await remarks('/carrier-log/list', body, 'zh-CN');
    const ja = await remarks('/carrier-log/list', body, 'ja-JP');
    for (const [lang, text] of [
      ['zh-CN', zh[0]],
      ['ja-JP', ja[0]],
    ]) {
      expect(text, lang).toMatch(/Warehouse A1/); // the warehouse's name is data, kept as is
      expect(text, lang).toMatch(/180/);
      expect(text, lang).not.toBe(en[0]);
    }
    expect(zh[0]).toMatch(/[\u4e00-\u9fff]/);
    expect(ja[0]).toMatch(/[\u3040-\u30ff]/);
  });
});
