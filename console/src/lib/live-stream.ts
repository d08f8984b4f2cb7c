/**
 * The telemetry plugin's live events (POST /api/events/stream, text/event-stream) read with
 * fetch, since EventSource cannot send the Token/OrgId headers. Reconnects after a drop or the
 * server's periodic close (it ends each stream to re-authenticate), backing off on repeated
 * failures; stops on dispose. With `onUnavailable`, a call that does not exist or is refused
 * ends the stream and tells the caller (who falls back to polling); without it, it retries.
 */
import { API_BASE } from '../constants';
import { apiHeaders } from '../providers/http-client';
import { parseSse, type StreamEvent } from './sse-parse';

export { parseSse, type StreamEvent };

export interface LiveStreamOptions {
  onUnavailable?: () => void;
  path?: string;
}

export function openLiveStream(onEvent: (e: StreamEvent) => void, opts: LiveStreamOptions = {}): () => void {
  const path = opts.path ?? `${API_BASE}/events/stream`;
  let stopped = false;
  let ctrl: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const run = async (): Promise<void> => {
    ctrl = new AbortController();
    try {
      const res = await fetch(path, {
        method: 'POST',
        headers: { ...apiHeaders(), 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: '{}',
        signal: ctrl.signal,
      });
      const type = res.headers.get('content-type') ?? '';
      if (!res.ok || !type.includes('text/event-stream') || !res.body) {
        if (opts.onUnavailable) {
          stopped = true;
          opts.onUnavailable();
          return;
        }
        throw new Error(`stream ${res.status}`);
      }
      failures = 0;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf = parseSse(buf + value, (e) => {
          try {
            onEvent(e);
          } catch {
            // one listener's failure must not end the stream; the next event is independent
          }
        });
      }
    } catch {
      if (stopped) return;
      failures++;
    }
    if (stopped) return;
    timer = setTimeout(() => void run(), Math.min(30_000, 3000 * 2 ** Math.min(failures, 4)));
  };
  void run();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    ctrl?.abort();
  };
}
