/**
 * Live events inside one server process, per organisation: the state sink publishes, each
 * event-stream connection subscribes to its caller's organisation only. An event naming a
 * warehouse reaches warehouse-restricted users of that warehouse only (the stream filters).
 */
export interface LiveEvent {
  type: 'alert' | 'alert-cleared' | 'alert-processed' | 'device' | 'carrier' | 'inout' | 'gps-config';
  orgId: number;
  warehouseId: number | null;
  /** about a row every member of the organisation sees (no warehouse bounds it): restricted users get it too */
  orgWide?: boolean;
  data: unknown;
}

type Listener = (e: LiveEvent) => void;

export class EventBus {
  private readonly byOrg = new Map<number, Set<Listener>>();

  subscribe(orgId: number, fn: Listener): () => void {
    let set = this.byOrg.get(orgId);
    if (!set) this.byOrg.set(orgId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.byOrg.get(orgId) === set) this.byOrg.delete(orgId);
    };
  }

  private readonly raised = new Set<(e: LiveEvent) => void>();

  /** every event raised on this instance, of every organisation (not those relayed from others): webhooks */
  onRaised(fn: (e: LiveEvent) => void): () => void {
    this.raised.add(fn);
    return () => void this.raised.delete(fn);
  }

  publish(e: LiveEvent): void {
    this.dispatch(e);
    for (const fn of this.raised) {
      try {
        fn(e);
      } catch {
        // a listener never breaks the publisher (the state sink)
      }
    }
  }

  /** to this instance's subscribers of the event's organisation */
  protected dispatch(e: LiveEvent): void {
    const set = this.byOrg.get(e.orgId);
    if (!set) return;
    for (const fn of set) fn(e);
  }

  listeners(orgId?: number): number {
    if (orgId !== undefined) return this.byOrg.get(orgId)?.size ?? 0;
    let n = 0;
    for (const s of this.byOrg.values()) n += s.size;
    return n;
  }
}
