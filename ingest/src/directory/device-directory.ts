/**
 * Who may talk to ingest and which devices exist. The hot path asks synchronous questions of
 * an in-memory snapshot (a Set lookup per reading); implementations refresh the snapshot from
 * the business database in the background. Only gateway authentication is asynchronous (the
 * password hash is slow on purpose).
 */

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
   * The organisation's registered beacon macs / GPS sns (key → the directory's own copy of it),
   * for one lookup per frame instead of per reading; decoders store the long-lived copy so the
   * parsed string dies young.
   */
  knownKeys?(kind: 'beacon' | 'gps', orgId: number): ReadonlyMap<string, string>;
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
  private beacons = new Map<number, Map<string, string>>();
  private gpsDevices = new Map<number, Map<string, string>>();

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
    this.beacons = byOrg(s.beacons.map((b) => [b.orgId, b.mac]));
    this.gpsDevices = byOrg(s.gps.map((g) => [g.orgId, g.sn]));
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

  knownKeys(kind: 'beacon' | 'gps', orgId: number): ReadonlyMap<string, string> {
    return (kind === 'beacon' ? this.beacons : this.gpsDevices).get(orgId) ?? NONE;
  }
}

const NONE: ReadonlyMap<string, string> = new Map();

function byOrg(pairs: Array<[number, string]>): Map<number, Map<string, string>> {
  const m = new Map<number, Map<string, string>>();
  for (const [org, key] of pairs) {
    let keys = m.get(org);
    if (!keys) m.set(org, (keys = new Map()));
    keys.set(key, key);
  }
  return m;
}
