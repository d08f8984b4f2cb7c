/**
 * The unsolved-alert feed behind the notification menu: one call (/device-alert/unsolved,
 * ≤ 15 unsolved per category, five categories) shared by every reader, refreshed live — on
 * each alert event of the SSE stream (debounced) — or, when the stream is not available,
 * every 30 s. Started by the first subscriber, stopped with the last.
 */
import { request } from '@rti/console/plugin-api';
import { FEED_PATH } from './alert-kinds';
export { unsolvedTotal } from './alert-kinds';
import { openLiveStream } from '@rti/console/live-stream';

export type { AlertRow, CategoryFeed } from './alert-kinds';
export type { FeedState } from './alert-kinds';
import type { FeedState } from './alert-kinds';
export type LiveMode = 'stream' | 'polling' | 'off';

export const POLL_MS = 30_000;
const DEBOUNCE_MS = 800;
const ALERT_EVENTS = new Set(['alert', 'alert-cleared', 'alert-processed']);

type Listener = (s: FeedState) => void;

class AlertFeed {
  state: FeedState = {};
  mode: LiveMode = 'off';
  private listeners = new Set<Listener>();
  private inflight?: Promise<FeedState>;
  private stopStream?: () => void;
  private poll?: ReturnType<typeof setInterval>;
  private debounce?: ReturnType<typeof setTimeout>;

  /** loads now (concurrent callers share one request) */
  refresh(): Promise<FeedState> {
    this.inflight ??= request<FeedState>(FEED_PATH, {})
      .then((s) => {
        this.state = s ?? {};
        for (const l of this.listeners) l(this.state);
        return this.state;
      })
      .finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(fn);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private start(): void {
    void this.refresh().catch(() => undefined);
    this.mode = 'stream';
    this.stopStream = openLiveStream(
      (e) => {
        if (!ALERT_EVENTS.has(e.type)) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.refresh().catch(() => undefined), DEBOUNCE_MS);
      },
      { onUnavailable: () => this.startPolling() },
    );
  }

  private startPolling(): void {
    this.mode = 'polling';
    this.poll ??= setInterval(() => void this.refresh().catch(() => undefined), POLL_MS);
  }

  private stop(): void {
    this.stopStream?.();
    this.stopStream = undefined;
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    clearTimeout(this.debounce);
    this.mode = 'off';
  }
}

export const alertFeed = new AlertFeed();
