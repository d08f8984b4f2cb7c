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
import { STREAMED, renderTexts, type Language, type PluginServerContext } from '@rti/server/plugin-api';
import type { EventBus, LiveEvent } from './event-bus';

export const STREAM_PATH = '/events/stream';
const PING_MS = 25_000;
const STREAM_MAX_MS = Number(process.env.EVENT_STREAM_MAX_MS) || 15 * 60_000;
/** events buffered for a slow client before it is disconnected (it reconnects and resyncs) */
const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * An event's data as one subscriber reads it: a row of a resource (`data.resource`) whose
 * fields declare `textFrom` gets those texts rendered in the subscriber's language, as every
 * read of the row does (an alert's message), not the writer's English. Serialized once per
 * event and language however many streams carry it.
 */
export function liveEventText(ctx: Pick<PluginServerContext, 'metadata' | 't'>): (e: LiveEvent, language: Language) => string {
  const cache = new WeakMap<LiveEvent, Map<Language, string>>();
  return (e, language) => {
    let byLang = cache.get(e);
    const hit = byLang?.get(language);
    if (hit !== undefined) return hit;
    const data = e.data as Record<string, unknown> | null;
    const def = data && typeof data === 'object' && typeof data.resource === 'string' ? ctx.metadata.resources[data.resource] : undefined;
    let out: unknown = data;
    if (def?.fields.some((f) => f.textFrom)) {
      const row = { ...data };
      renderTexts(def, [row], language, ctx.t);
      out = row;
    }
    const text = JSON.stringify(out);
    if (!byLang) cache.set(e, (byLang = new Map()));
    byLang.set(language, text);
    return text;
  };
}

export function installEventStream(ctx: PluginServerContext, bus: EventBus): void {
  const textOf = liveEventText(ctx);
  ctx.addCall({
    path: STREAM_PATH,
    permission: null,
    handler({ ctx: call, req, res }) {
      const orgId = call.orgId!;
      const warehouses = call.warehouseIds;
      const language = call.language;
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
        if (warehouses && !e.orgWide && (e.warehouseId === null || !warehouses.includes(e.warehouseId))) return;
        if (res.writableLength > MAX_BUFFERED_BYTES) return void close();
        res.write(`id: ${++seq}\nevent: ${e.type}\ndata: ${textOf(e, language)}\n\n`);
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
