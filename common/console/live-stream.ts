/**
 * Reads the live event stream (POST /api/events/stream, text/event-stream) with fetch, since
 * EventSource cannot send the Token/OrgId headers. Reconnects after the server's `retry`
 * (the server ends each stream after a while to re-authenticate). `onUnavailable` fires when
 * the stream call does not exist or is refused, so callers can fall back to polling.
 */
import { API_BASE } from '../../../console/src/constants';
import { apiHeaders } from '../../../console/src/providers/http-client';

import { parseSse, type StreamEvent } from './sse-parse';

export type { StreamEvent };

export function openLiveStream(onEvent: (e: StreamEvent) => void, onUnavailable: () => void, path = `${API_BASE}/events/stream`): () => void {
  let stopped = false;
  let ctrl: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const run = async (): Promise<void> => {
    ctrl = new AbortController();
    try {
      const res = await fetch(path, { method: 'POST', headers: { ...apiHeaders(), 'Content-Type': 'application/json', Accept: 'text/event-stream' }, body: '{}', signal: ctrl.signal });
      const type = res.headers.get('content-type') ?? '';
      if (!res.ok || !type.includes('text/event-stream') || !res.body) {
        stopped = true;
        onUnavailable();
        return;
      }
      failures = 0;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf = parseSse(buf + value, onEvent);
      }
    } catch {
      if (stopped) return;
      failures++;
    }
    if (stopped) return;
    // the server closes streams on purpose; reconnect, backing off on repeated failures
    timer = setTimeout(() => void run(), Math.min(30_000, 3000 * 2 ** Math.min(failures, 4)));
  };
  void run();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    ctrl?.abort();
  };
}
