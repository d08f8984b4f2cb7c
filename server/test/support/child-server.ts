/**
 * A test server in a child process, for suites that must see the server survive what they
 * send (a crash, a restart or a leak shows as a changed pid, an exit or a growing RSS, which an
 * in-process server would hide). The child script prints one line `READY {json}` when it
 * listens; stderr is kept (bounded) for the failure message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const serverRoot = fileURLToPath(new URL('../..', import.meta.url));
/** stderr kept for failure messages: the last megabyte or two */
const STDERR_KEEP = 1_000_000;
const START_MS = 90_000;

export interface ChildServer<R> {
  child: ChildProcess;
  ready: R;
  /** the child's stderr so far (its tail) */
  stderr(): string;
  /** how the child ended, or null while it runs */
  exited(): { code: number | null; signal: string | null } | null;
  /** resident set of the child now and at its peak, MB, from /proc */
  rss(): { now: number; peak: number };
  /** CPU seconds the child has used (user + system), from /proc */
  cpuSeconds(): number;
  /** sends a message over IPC and waits for the child's answer of the same type */
  ask<T>(type: string): Promise<T>;
  /** SIGTERM, then waits for the exit (at most `waitMs`) */
  stop(waitMs?: number): Promise<void>;
}

/**
 * Starts `script` (a path under server/, run with tsx) and resolves once it printed READY.
 * `name` words the start-up failure; `ipc` opens a message channel for `ask`; `heapMb` caps V8's old space.
 */
export function startChildServer<R extends { pid: number }>(o: {
  script: string;
  name: string;
  env?: Record<string, string>;
  ipc?: boolean;
  heapMb?: number;
}): Promise<ChildServer<R>> {
  // a heap cap makes V8 collect before it grows: the resident set then measures live memory
  // (what a leak would raise, up to a crash the suite sees) rather than how late the collector ran
  const heap = o.heapMb ? [`--max-old-space-size=${o.heapMb}`] : [];
  const child = spawn(process.execPath, [...heap, '--import', 'tsx', o.script], {
    cwd: serverRoot,
    env: { ...process.env, ...o.env },
    stdio: o.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let exited: { code: number | null; signal: string | null } | null = null;
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.length > 2 * STDERR_KEEP) stderr = stderr.slice(-STDERR_KEEP);
  });
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const proc = (file: string) => readFileSync(`/proc/${child.pid}/${file}`, 'utf8');
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${o.name} did not start:\n${stderr.slice(-4000)}`)), START_MS);
    child.on('exit', () => reject(new Error(`${o.name} exited before it was ready:\n${stderr.slice(-4000)}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      // only a whole line: the READY line spans several chunks
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => l.startsWith('READY '));
      if (!line) return;
      clearTimeout(timer);
      resolve({
        child,
        ready: JSON.parse(line.slice(6)) as R,
        stderr: () => stderr,
        exited: () => exited,
        rss() {
          try {
            const status = proc('status');
            const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
            return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
          } catch {
            return { now: 0, peak: 0 };
          }
        },
        cpuSeconds() {
          try {
            const fields = proc('stat')
              .replace(/^.*\) /, '')
              .split(' ');
            return (Number(fields[11]) + Number(fields[12])) / 100;
          } catch {
            return 0;
          }
        },
        ask<T>(type: string) {
          return new Promise<T>((answer) => {
            const on = (m: { type?: string }) => {
              if (m?.type !== type) return;
              child.off('message', on);
              answer(m as T);
            };
            child.on('message', on);
            child.send({ type });
          });
        },
        async stop(waitMs = 10_000) {
          if (exited) return;
          child.kill('SIGTERM');
          await new Promise((r) => {
            child.once('exit', r);
            setTimeout(r, waitMs);
          });
        },
      });
    });
  });
}
