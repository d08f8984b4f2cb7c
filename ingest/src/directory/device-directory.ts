/**
 * Who may talk to ingest and which devices exist. The hot path asks synchronous questions of
 * an in-memory snapshot (a Set lookup per reading); implementations refresh the snapshot from
 * the business database in the background. Only gateway authentication is asynchronous (the
 * password hash is slow on purpose).
 */
import { deviceSlots } from './device-slots';

export interface OrgIdentity {
  id: number;
  code: string;
}

export interface GatewayIdentity {
  id: number;
  orgId: number;
  orgCode: string;
  /** canonical mac (12 upper-case hex digits) */
  mac: string;
  sn: string;
  /** slave gateways publish their own topics; master gateways relay for their organisation */
  role: 'slave' | 'master';
}

export interface DeviceDirectory {
  /** MQTT CONNECT: the gateway's own mqttUsername/mqttPassword; null = refuse */
  authenticate(username: string, password: string): Promise<GatewayIdentity | null>;
  org(code: string): OrgIdentity | undefined;
  orgById(id: number): OrgIdentity | undefined;
  /** enabled gateway of the organisation */
  gateway(orgId: number, mac: string): GatewayIdentity | undefined;
  beaconKnown(orgId: number, mac: string): boolean;
  gpsKnown(orgId: number, sn: string): boolean;
  /**
   * The organisation's registered beacon macs / GPS sns (key → its slot, directory/device-slots.ts),
   * fetched once per frame instead of per reading. Decoders store the slot's long-lived key string,
   * so the parsed one dies young, and pass the slot on so the store and rules need no lookup of their own.
   */
  knownKeys?(kind: 'beacon' | 'gps', orgId: number): ReadonlyMap<string, number>;
}

export interface DirectorySnapshot {
  orgs: OrgIdentity[];
  /** enabled gateways with their credentials (hash as stored) */
  gateways: Array<GatewayIdentity & { mqttUsername: string | null; mqttPasswordHash: string | null }>;
  beacons: Array<{ orgId: number; mac: string }>;
  gps: Array<{ orgId: number; sn: string }>;
}

/**
 * Directory over a loaded snapshot. `verify` checks a password against its stored hash
 * (the server's verifyPassword in production).
 */
export class SnapshotDirectory implements DeviceDirectory {
  private orgsByCode = new Map<string, OrgIdentity>();
  private orgsById = new Map<number, OrgIdentity>();
  private gatewaysByKey = new Map<string, GatewayIdentity>();
  private credentials = new Map<string, { gateway: GatewayIdentity; hash: string }>();
  // orgId → keys: no string building per reading on the hot path
  private beacons = new Map<number, Map<string, number>>();
  private gpsDevices = new Map<number, Map<string, number>>();

  constructor(
    private readonly verify: (password: string, hash: string) => Promise<boolean>,
    snapshot?: DirectorySnapshot,
  ) {
    if (snapshot) this.load(snapshot);
  }

  /** Swaps in a new snapshot atomically (lookups never see a half-loaded one). */
  load(s: DirectorySnapshot): void {
    const orgs = new Map(s.orgs.map((o) => [o.code, o]));
    const gateways = new Map<string, GatewayIdentity>();
    const credentials = new Map<string, { gateway: GatewayIdentity; hash: string }>();
    for (const g of s.gateways) {
      const { mqttUsername, mqttPasswordHash, ...identity } = g;
      gateways.set(`${g.orgId}/${g.mac}`, identity);
      if (mqttUsername && mqttPasswordHash) credentials.set(mqttUsername, { gateway: identity, hash: mqttPasswordHash });
    }
    this.orgsByCode = orgs;
    this.orgsById = new Map(s.orgs.map((o) => [o.id, o]));
    this.gatewaysByKey = gateways;
    this.credentials = credentials;
    this.beacons = byOrg(
      'beacon',
      s.beacons.map((b) => [b.orgId, b.mac]),
    );
    this.gpsDevices = byOrg(
      'gps',
      s.gps.map((g) => [g.orgId, g.sn]),
    );
  }

  async authenticate(username: string, password: string): Promise<GatewayIdentity | null> {
    const c = this.credentials.get(username);
    if (!c) return null;
    return (await this.verify(password, c.hash)) ? c.gateway : null;
  }

  org(code: string): OrgIdentity | undefined {
    return this.orgsByCode.get(code);
  }

  orgById(id: number): OrgIdentity | undefined {
    return this.orgsById.get(id);
  }

  gateway(orgId: number, mac: string): GatewayIdentity | undefined {
    return this.gatewaysByKey.get(`${orgId}/${mac}`);
  }

  beaconKnown(orgId: number, mac: string): boolean {
    return this.beacons.get(orgId)?.has(mac) ?? false;
  }

  gpsKnown(orgId: number, sn: string): boolean {
    return this.gpsDevices.get(orgId)?.has(sn) ?? false;
  }

  knownKeys(kind: 'beacon' | 'gps', orgId: number): ReadonlyMap<string, number> {
    return (kind === 'beacon' ? this.beacons : this.gpsDevices).get(orgId) ?? NONE;
  }
}

const NONE: ReadonlyMap<string, number> = new Map();

function byOrg(series: string, pairs: Array<[number, string]>): Map<number, Map<string, number>> {
  const m = new Map<number, Map<string, number>>();
  for (const [org, key] of pairs) {
    let keys = m.get(org);
    if (!keys) m.set(org, (keys = new Map()));
    keys.set(key, deviceSlots.slot(series, org, key));
  }
  return m;
}
