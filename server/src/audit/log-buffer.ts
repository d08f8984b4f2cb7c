/**
 * Log rows are written after the answer, in batches: one bulk insert per table every
 * `intervalMs` (or sooner when `batch` rows wait). The buffer is bounded: under a flood the
 * oldest rows are dropped and counted rather than letting memory grow or calls wait.
 */
export interface LogSink {
  write(rows: Array<Record<string, unknown>>): Promise<void>;
}

export interface LogBufferOptions {
  intervalMs?: number;
  batch?: number;
  max?: number;
  onError?(err: unknown): void;
}

export class LogBuffer {
  private rows: Array<Record<string, unknown>> = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  dropped = 0;

  constructor(
    private readonly sink: LogSink,
    private readonly opts: LogBufferOptions = {},
  ) {}

  push(row: Record<string, unknown>): void {
    const max = this.opts.max ?? 20_000;
    if (this.rows.length >= max) {
      this.rows.shift();
      this.dropped++;
    }
    this.rows.push(row);
    if (this.rows.length >= (this.opts.batch ?? 200)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.opts.intervalMs ?? 500);
      this.timer.unref();
    }
  }

  /** Writes what is waiting; resolves when it is stored. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.flushing = this.flushing.then(async () => {
      while (this.rows.length) {
        // Everything waiting goes in one write: under a bulk writer each write waits for a
        // turn at the (SQLite) write lock, so taking a fixed slice per turn would fall behind.
        const rows = this.rows.splice(0, this.rows.length);
        try {
          await this.sink.write(rows);
        } catch (err) {
          this.opts.onError?.(err);
        }
      }
    });
    return this.flushing;
  }
}
