/**
 * Samples the host's CPU and memory at a fixed interval into a bounded ring, so the inspection
 * charts show a recent history without any external agent. CPU % is the busy share of all
 * cores between two os.cpus() readings (the only portable source); the process's own CPU comes
 * from process.cpuUsage() over the same interval.
 */
import os from 'node:os';

export interface HostSample {
  time: number;
  /** whole machine, 0–100 */
  cpu: number;
  /** this server process, share of one core ×100 / cores, 0–100 */
  processCpu: number;
  memTotal: number;
  memUsed: number;
  /** resident set size of this process */
  processRss: number;
  heapUsed: number;
  load1: number;
}

interface CpuTimes {
  idle: number;
  total: number;
}

function cpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

/** busy % between two readings; 0 when no time passed */
export function cpuPercent(a: CpuTimes, b: CpuTimes): number {
  const total = b.total - a.total;
  if (total <= 0) return 0;
  return round1(100 * (1 - (b.idle - a.idle) / total));
}

export const round1 = (n: number) => Math.round(n * 10) / 10;

export class HostSampler {
  private readonly ring: HostSample[] = [];
  private lastCpu = cpuTimes();
  private lastProc = process.cpuUsage();
  private lastAt = Date.now();

  constructor(private readonly capacity = 120) {}

  /** takes one sample now (also called by the interval job) */
  sample(): HostSample {
    const now = Date.now();
    const cpu = cpuTimes();
    const proc = process.cpuUsage();
    const elapsedUs = Math.max(1, (now - this.lastAt) * 1000);
    const procUs = proc.user - this.lastProc.user + (proc.system - this.lastProc.system);
    const mem = process.memoryUsage();
    const s: HostSample = {
      time: now,
      cpu: cpuPercent(this.lastCpu, cpu),
      processCpu: round1(Math.min(100, (100 * procUs) / elapsedUs / Math.max(1, os.cpus().length))),
      memTotal: os.totalmem(),
      memUsed: os.totalmem() - os.freemem(),
      processRss: mem.rss,
      heapUsed: mem.heapUsed,
      load1: round1(os.loadavg()[0]),
    };
    this.lastCpu = cpu;
    this.lastProc = proc;
    this.lastAt = now;
    this.ring.push(s);
    if (this.ring.length > this.capacity) this.ring.shift();
    return s;
  }

  /** the history, oldest first; sampled once if still empty */
  history(): HostSample[] {
    if (this.ring.length === 0) this.sample();
    return [...this.ring];
  }

  latest(): HostSample {
    return this.ring.at(-1) ?? this.sample();
  }
}
