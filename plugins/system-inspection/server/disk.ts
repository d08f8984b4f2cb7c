/**
 * Disk occupancy from fs.statfs (Node ≥ 18.15): the file systems holding the data directory
 * and the root, de-duplicated by device so one disk is never listed twice; and the size of a
 * directory tree (the telemetry store), walked without following links.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DiskInfo {
  path: string;
  total: number;
  used: number;
  free: number;
  /** used share 0–100 */
  usage: number;
}

export async function diskOf(p: string): Promise<DiskInfo> {
  const s = await fs.promises.statfs(p);
  const total = s.blocks * s.bsize;
  const free = s.bavail * s.bsize;
  // used as df counts it: blocks minus all free blocks (root-reserved ones included)
  const used = total - s.bfree * s.bsize;
  const usage = total > 0 ? Math.round((1000 * used) / (used + free)) / 10 : 0;
  return { path: p, total, used, free, usage };
}

export async function disksFor(paths: string[]): Promise<DiskInfo[]> {
  const seen = new Set<number>();
  const out: DiskInfo[] = [];
  for (const p of paths) {
    let dev: number;
    try {
      dev = (await fs.promises.stat(p)).dev;
    } catch {
      continue; // a path that does not exist (e.g. no data dir yet) has no disk to show
    }
    if (seen.has(dev)) continue;
    seen.add(dev);
    out.push(await diskOf(p));
  }
  return out;
}

/** bytes under a directory (0 when it does not exist) */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await directorySize(p);
    else if (e.isFile()) total += (await fs.promises.stat(p).catch(() => ({ size: 0 }))).size;
  }
  return total;
}
