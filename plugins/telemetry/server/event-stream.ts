/**
 * Live events as server-sent events: POST /api/events/stream through the one dispatcher, so
 * the caller authenticates exactly like any call (Token and OrgId headers) and the token never
 * appears in a URL, log line or Referer. Browsers read it with fetch() and a stream reader
 * (EventSource cannot send headers); the body is standard text/event-stream framing.
 *
 * Scope: events of the caller's current organisation only; a warehouse-restricted user gets
 * only events of their warehouses (as the repository scopes rows; none without a warehouse). A stream lasts at most STREAM_MAX_MS,
 * then closes so the client reconnects and is authenticated again (a revoked session or a
 * changed permission stops receiving within that time).
 */
import { STREAMED, type PluginServerContext } from '@rti/server/plugin-api';
import type { EventBus, LiveEvent } from './event-bus';

export const STREAM_PATH = '/events/stream';
const PING_MS = 25_000;
const STREAM_MAX_MS = Number(process.env.EVENT_STREAM_MAX_MS) || 15 * 60_000;
/** events buffered for a slow client before it is disconnected (it reconnects and resyncs) */
const MAX_BUFFERED_BYTES = 1 << 20;

export function installEventStream(ctx: PluginServerContext, bus: EventBus): void {
  ctx.addCall({
    path: STREAM_PATH,
    permission: null,
    handler({ ctx: call, req, res }) {
      const orgId = call.orgId!;
      const warehouses = call.warehouseIds;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        // no-transform keeps the compression middleware from buffering the stream
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write(`retry: 3000\nevent: ready\ndata: ${JSON.stringify({ orgId })}\n\n`);
      let seq = 0;
      const send = (e: LiveEvent) => {
        // as the repository scopes rows: a restricted user sees rows of their warehouses only
        // (a carrier in transit, warehouse null, is not in any of them)
        if (warehouses && (e.warehouseId === null || !warehouses.includes(e.warehouseId))) return;
        if (res.writableLength > MAX_BUFFERED_BYTES) return void close();
        res.write(`id: ${++seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`);
      };
      const unsubscribe = bus.subscribe(orgId, send);
      const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
      const expire = setTimeout(() => close(), STREAM_MAX_MS);
      let closed = false;
      function close(): void {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(ping);
        clearTimeout(expire);
        res.end();
      }
      req.on('close', close);
      res.on('close', close);
      return STREAMED;
    },
  });
}
