/**
 * Simple interval jobs for plugins: one run at a time per job (a slow run is not stacked),
 * errors logged and the job kept alive, every timer stopped on close.
 */
export interface JobRun {
  name: string;
  /** set when the server is closing; long runs should stop early */
  signal: AbortSignal;
}

export type JobFn = (run: JobRun) => Promise<void> | void;

export interface JobOptions {
  /**
   * Once per cluster: of all server instances on the database, one runs the job per period
   * (claimed on a lease row, job-lease.ts); without it every instance runs it on its own timer.
   */
  once?: boolean;
}

/** Claims one period of a job for this instance; true = run it now. */
export type JobClaim = (name: string, periodMs: number) => Promise<boolean>;

export class JobRunner {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private started = false;
  private readonly queued: Array<() => void> = [];

  constructor(
    private readonly log: (msg: string, err?: unknown) => void = (m, e) => console.error(m, e ?? ''),
    private readonly claim?: JobClaim,
  ) {}

  /**
   * Runs fn every intervalMs (first run after one interval) once the runner is started; with
   * `once`, only on the instance that claims the period (see JobOptions).
   */
  every(name: string, intervalMs: number, fn: JobFn, opts: JobOptions = {}): () => void {
    if (!Number.isFinite(intervalMs) || intervalMs < 10) throw new Error(`job "${name}": interval must be at least 10 ms`);
    if (this.timers.has(name)) throw new Error(`job "${name}" is already scheduled`);
    if (opts.once && !this.claim) throw new Error(`job "${name}": once per cluster needs the database lease (no claim given to the runner)`);
    const claim = opts.once ? this.claim : undefined;
    let busy = false;
    const tick = () => {
      if (busy || this.abort.signal.aborted) return;
      busy = true;
      const p = (async () => {
        try {
          if (claim && !(await claim(name, intervalMs))) return;
          await fn({ name, signal: this.abort.signal });
        } catch (err) {
          this.log(`[jobs] ${name} failed:`, err);
        } finally {
          busy = false;
        }
      })();
      this.running.add(p);
      void p.finally(() => this.running.delete(p));
    };
    const schedule = () => {
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      this.timers.set(name, timer);
    };
    if (this.started) schedule();
    else this.queued.push(schedule);
    return () => {
      clearInterval(this.timers.get(name));
      this.timers.delete(name);
    };
  }

  names(): string[] {
    return [...this.timers.keys()];
  }

  start(): void {
    this.started = true;
    for (const s of this.queued.splice(0)) s();
  }

  /** Stops every timer and waits for runs in progress. */
  async stop(): Promise<void> {
    this.abort.abort();
    for (const t of this.timers.values()) clearInterval(t);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }
}
