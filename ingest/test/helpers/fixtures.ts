import path from 'node:path';
import { SnapshotDirectory, type DirectorySnapshot } from '../../src/directory/device-directory';
import { SqliteTelemetryStore } from '../../src/store/sqlite-store';
import type { SeriesBatch } from '../../src/store/telemetry-store';

export const ORG = { id: 1, code: 'ACME' };
export const GW = 'AC233FC0A1B2';
export const GW2 = 'AC233FC0A1B3';
export const beaconMac = (i: number) => `E2C56D${i.toString(16).toUpperCase().padStart(6, '0')}`;

/** A store whose writes can be made to fail, like a database that went away. */
export class FlakyStore extends SqliteTelemetryStore {
  down = false;
  writes = 0;
  override async write(batches: readonly SeriesBatch[], mark?: number): Promise<void> {
    if (this.down) throw new Error('store unavailable');
    this.writes++;
    return super.write(batches, mark);
  }
  override async ping(): Promise<boolean> {
    return !this.down && super.ping();
  }
}

export function sqliteIn(dir: string): FlakyStore {
  return new FlakyStore({ file: path.join(dir, 'telemetry.db') });
}

/** Plain-text "hash" for tests that are not about password hashing. */
export const plainVerify = async (password: string, hash: string) => `plain:${password}` === hash;

export function snapshot(over: Partial<DirectorySnapshot> = {}, beacons = 1000): DirectorySnapshot {
  return {
    orgs: [ORG, { id: 2, code: 'OTHER' }],
    gateways: [
      { id: 1, orgId: 1, orgCode: 'ACME', mac: GW, sn: 'GW-1', role: 'slave', mqttUsername: 'gw1', mqttPasswordHash: 'plain:Secret123' },
      { id: 2, orgId: 1, orgCode: 'ACME', mac: GW2, sn: 'GW-2', role: 'slave', mqttUsername: 'gw2', mqttPasswordHash: 'plain:Secret456' },
      { id: 3, orgId: 1, orgCode: 'ACME', mac: 'AC233FC0FFFF', sn: 'MGW-1', role: 'master', mqttUsername: 'master1', mqttPasswordHash: 'plain:Master123' },
      { id: 4, orgId: 2, orgCode: 'OTHER', mac: 'AC233FC0EEEE', sn: 'GW-X', role: 'slave', mqttUsername: 'other', mqttPasswordHash: 'plain:Other123' },
    ],
    beacons: Array.from({ length: beacons }, (_, i) => ({ orgId: 1, mac: beaconMac(i) })),
    gps: [{ orgId: 1, sn: 'GT-1' }],
    ...over,
  };
}

export const directory = (over: Partial<DirectorySnapshot> = {}) => new SnapshotDirectory(plainVerify, snapshot(over));

const T = Date.now() - 3600_000;

/**
 * A scan frame with n readings whose minor numbers start at `first` (to check loss and
 * duplicates); each reading has its own time so no two rows share device and time.
 */
export function scanPayload(first: number, n: number, gatewayMac = GW, beacons = 1000): Buffer {
  const readings = [];
  for (let i = 0; i < n; i++) {
    const k = first + i;
    readings.push({
      mac: beaconMac(k % beacons),
      rssi: -60 - (k % 30),
      battery: 80,
      temperature: 20.5,
      humidity: 40,
      uuid: 'FDA50693-A4E2-4FB1-AFCF-C6EB07647825',
      major: Math.floor(k / 65536),
      minor: k % 65536,
      txPower: -59,
      time: T + k,
    });
  }
  return Buffer.from(JSON.stringify({ gatewayMac, time: Date.now(), readings }));
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 15000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}
