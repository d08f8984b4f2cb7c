/**
 * The live event stream opened the way the console opens it (fetch with the Token, OrgId and
 * Language headers, the body read as it arrives), framed by the console's own SSE parser.
 */
import { expect } from 'vitest';
import { parseSse } from '@rti/console/live-stream';
import type { Caller } from './fixtures';

export interface LiveEvent {
  event: string;
  data: any;
}

export interface LiveStream {
  events: LiveEvent[];
  /** the first event matching, waiting for it up to `ms` */
  waitFor(pred: (e: LiveEvent) => boolean, ms?: number): Promise<LiveEvent>;
  close(): void;
}

export async function openStream(baseUrl: string, caller: Caller, language?: string): Promise<LiveStream> {
  const ac = new AbortController();
  const headers: Record<string, string> = { Token: caller.token, OrgId: String(caller.orgId), 'Content-Type': 'application/json' };
  if (language) headers.Language = language;
  const res = await fetch(`${baseUrl}/api/events/stream`, { method: 'POST', headers, body: '{}', signal: ac.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: LiveEvent[] = [];
  const waiters: Array<() => void> = [];
  void (async () => {
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf = parseSse(buf + dec.decode(value, { stream: true }), (e) => events.push({ event: e.type, data: e.data }));
        for (const w of waiters.splice(0)) w();
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    async waitFor(pred, ms = 5000) {
      const end = Date.now() + ms;
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        if (Date.now() > end) throw new Error(`no matching event; got ${JSON.stringify(events.map((e) => e.event))}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
    },
    close: () => ac.abort(),
  };
}
