/**
 * The telemetry plugin's live events (POST /api/events/stream, text/event-stream read with
 * fetch — EventSource cannot send the Token header). Reconnects after a drop or the server's
 * periodic close; stops on dispose.
 */
import { apiHeaders } from '../../../console/src/providers/http-client';

export type LiveHandler = (type: string, data: any) => void;

export function openLiveStream(onEvent: LiveHandler): () => void {
  let stopped = false;
  let ctrl: AbortController | null = null;
  const run = async () => {
    while (!stopped) {
      ctrl = new AbortController();
      try {
        const res = await fetch('/api/events/stream', { method: 'POST', headers: { 'Content-Type': 'application/json', ...apiHeaders() }, body: '{}', signal: ctrl.signal });
        if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').includes('event-stream')) throw new Error(`stream ${res.status}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let cut: number;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            let type = 'message';
            let data = '';
            for (const line of frame.split('\n')) {
              if (line.startsWith('event: ')) type = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (data) {
              try {
                onEvent(type, JSON.parse(data));
              } catch {
                // a malformed frame is skipped; the next one is independent
              }
            }
          }
        }
      } catch {
        // dropped or not available: retry below
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 5000));
    }
  };
  void run();
  return () => {
    stopped = true;
    ctrl?.abort();
  };
}
