/**
 * DeviceDirectory backed by the business database (server's createDatabase). Loads a snapshot
 * of organisations, gateways (with their hashed MQTT passwords), beacons and GPS trackers and
 * refreshes it periodically; refresh() can also be called from resource hooks when devices
 * change. Disabled devices (use status 30) and unavailable organisations are left out, so they
 * are refused.
 */
import type { Database } from '@rti/server';
import { WRONG, mac as canonicalMac } from '../decoders/fields';
import { SnapshotDirectory, type DirectorySnapshot } from './device-directory';

const DISABLED = 30;

type Row = Record<string, unknown>;

export interface DbDirectoryOptions {
  database: Database;
  /** password check against the stored hash: the server's verifyPassword */
  verify: (password: string, hash: string) => Promise<boolean>;
  /** default 30 s; 0 = only on refresh() */
  refreshMs?: number;
  onError?: (err: unknown) => void;
}

export class DbDeviceDirectory extends SnapshotDirectory {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly dbOpts: DbDirectoryOptions) {
    super(dbOpts.verify);
  }

  async start(): Promise<void> {
    await this.refresh();
    const ms = this.dbOpts.refreshMs ?? 30_000;
    if (ms > 0) {
      this.timer = setInterval(() => void this.refresh().catch((err) => this.dbOpts.onError?.(err)), ms);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    this.load(await this.snapshot());
  }

  private async rows(resource: string, attributes: string[]): Promise<Row[]> {
    const model = this.dbOpts.database.models[resource];
    if (!model) throw new Error(`ingest: resource "${resource}" is not in the metadata`);
    return (await model.findAll({ attributes, raw: true })) as unknown as Row[];
  }

  private async snapshot(): Promise<DirectorySnapshot> {
    const [orgRows, slaves, masters, beacons, gps] = await Promise.all([
      this.rows('organization', ['id', 'code', 'available']),
      this.rows('device-slave-gateway', ['id', 'orgId', 'sn', 'mac', 'useStatus', 'mqttUsername', 'mqttPassword']),
      this.rows('device-master-gateway', ['id', 'orgId', 'sn', 'mac', 'useStatus', 'mqttUsername', 'mqttPassword']),
      this.rows('device-beacon', ['orgId', 'mac', 'useStatus']),
      this.rows('device-gps', ['orgId', 'sn', 'useStatus']),
    ]);
    const orgs = orgRows
      .filter((o) => o.available !== false && o.available !== 0 && typeof o.code === 'string')
      .map((o) => ({ id: Number(o.id), code: String(o.code) }));
    const codeOf = new Map(orgs.map((o) => [o.id, o.code]));
    const enabled = (r: Row) => Number(r.useStatus) !== DISABLED && codeOf.has(Number(r.orgId));
    const gateways: DirectorySnapshot['gateways'] = [];
    for (const [role, list] of [
      ['slave', slaves],
      ['master', masters],
    ] as const)
      for (const g of list) {
        const m = canonicalMac(g.mac);
        if (!enabled(g) || m === WRONG) continue;
        gateways.push({
          id: Number(g.id),
          orgId: Number(g.orgId),
          orgCode: codeOf.get(Number(g.orgId))!,
          mac: m,
          sn: String(g.sn ?? ''),
          role,
          mqttUsername: typeof g.mqttUsername === 'string' && g.mqttUsername ? g.mqttUsername : null,
          mqttPasswordHash: typeof g.mqttPassword === 'string' && g.mqttPassword ? g.mqttPassword : null,
        });
      }
    return {
      orgs,
      gateways,
      beacons: beacons.filter(enabled).flatMap((b) => {
        const m = canonicalMac(b.mac);
        return m === WRONG ? [] : [{ orgId: Number(b.orgId), mac: m }];
      }),
      gps: gps.filter(enabled).map((g) => ({ orgId: Number(g.orgId), sn: String(g.sn) })),
    };
  }
}
