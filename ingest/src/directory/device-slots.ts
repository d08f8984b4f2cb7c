/**
 * Device slots: one small integer per device key (series, organisation, key), the same for
 * every part of the ingest process. The intake finds a reading's slot with the lookup it does
 * anyway (is this device registered?) and hands it on beside the rows (DecodedFrame.slots); the
 * store's postings and the rules' device table are arrays indexed by it. A reading's key is
 * then hashed once, not once per consumer: at fleet scale each of those map lookups is a cache
 * miss or two, and together they cost more than decoding the reading.
 *
 * Slots are never reused: a device removed from the registry keeps its number (its entry is a
 * few dozen bytes), so a slot read from a frame accepted before a refresh never names another device.
 */
export class DeviceSlots {
  private readonly bySeries = new Map<string, Map<number, Map<string, number>>>();
  private readonly keys: string[] = [];

  /** The slot of a key, assigned on first sight. Off the hot path: directories and fleets call it when loaded. */
  slot(series: string, org: number, key: string): number {
    let byOrg = this.bySeries.get(series);
    if (!byOrg) this.bySeries.set(series, (byOrg = new Map()));
    let byKey = byOrg.get(org);
    if (!byKey) byOrg.set(org, (byKey = new Map()));
    let s = byKey.get(key);
    if (s === undefined) {
      s = this.keys.length;
      this.keys.push(key);
      byKey.set(key, s);
    }
    return s;
  }

  /** The key's long-lived string (the instance first registered): readings keep it, not their parsed copy. */
  key(slot: number): string {
    return this.keys[slot];
  }

  get size(): number {
    return this.keys.length;
  }
}

/** The process's slots: the directory, the store and the rules must agree, so there is one table. */
export const deviceSlots = new DeviceSlots();
