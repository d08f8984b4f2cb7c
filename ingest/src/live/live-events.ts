/**
 * Live events for the console (notification menu, maps): alerts opened, device status changes
 * and tracker positions, per organisation. In-process fan-out; the SSE handler below streams
 * them to signed-in browsers. (Several API processes would relay through the MQTT broker —
 * see docs/TELEMETRY.md §12.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type LiveEventType = 'alert' | 'device-status' | 'position';

export interface LiveEvent {
  type: LiveEventType;
  orgId: number;
  data: Record<string, unknown>;
}

type Listener = (e: LiveEvent) => void;

export class LiveEvents {
  private readonly byOrg = new Map<number, Set<Listener>>();
  /** events not delivered because a client could not keep up */
  dropped = 0;

  publish(e: LiveEvent): void {
    const set = this.byOrg.get(e.orgId);
    if (!set) return;
    for (const l of set) l(e);
  }

  subscribe(orgId: number, listener: Listener): () => void {
    const set = this.byOrg.get(orgId) ?? this.byOrg.set(orgId, new Set()).get(orgId)!;
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byOrg.delete(orgId);
    };
  }

  listeners(orgId: number): number {
    return this.byOrg.get(orgId)?.size ?? 0;
  }
}

export interface LiveEventsHandlerOptions {
  events: LiveEvents;
  /** the caller's current organisation, or null (401): the server's session guard */
  authenticate: (req: IncomingMessage) => Promise<number | null>;
  heartbeatMs?: number;
  /** buffered bytes per client before events are dropped for it (default 1 MiB) */
  maxBufferedBytes?: number;
}

/** Server-sent events: `GET <mount>` → `event: <type>` / `data: <json>` per event. */
export function createLiveEventsHandler(opts: LiveEventsHandlerOptions) {
  const heartbeat = opts.heartbeatMs ?? 15_000;
  const maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const orgId = await opts.authenticate(req).catch(() => null);
    if (orgId === null) {
      const body = JSON.stringify({ code: 10006, message: 'invalid session', data: null });
      res.writeHead(401, { 'Content-Type': 'application/json; charset=utf-8' }).end(body);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    res.write(`retry: 3000\n: connected\n\n`);
    const unsubscribe = opts.events.subscribe(orgId, (e) => {
      if (res.writableLength > maxBuffered) {
        opts.events.dropped++;
        return;
      }
      res.write(`event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`);
    });
    const beat = setInterval(() => res.write(': ping\n\n'), heartbeat);
    beat.unref();
    req.on('close', () => {
      clearInterval(beat);
      unsubscribe();
    });
  };
}
