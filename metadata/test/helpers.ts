import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { MetadataError, type MetadataFault, metadataRoot, pluginMetadataDirs, pluginsDirOf } from '../src/load';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A scratch copy of the repository's metadata (resources, enums, menu, locales) at
 * `<tmp>/metadata`, with every plugin's metadata folder at `<tmp>/plugins/<id>/metadata`;
 * answers `<tmp>/metadata` (a plugin file is `../plugins/<id>/metadata/…` from there).
 */
export function scratchCopy(): string {
  const top = mkdtempSync(join(tmpdir(), 'rti-meta-'));
  dirs.push(top);
  const dir = join(top, 'metadata');
  mkdirSync(dir);
  for (const p of ['resources', 'locales', 'enums.json', 'menu.json']) cpSync(join(metadataRoot, p), join(dir, p), { recursive: true });
  for (const p of pluginMetadataDirs(pluginsDirOf(metadataRoot))) cpSync(p.dir, join(top, 'plugins', p.id, 'metadata'), { recursive: true });
  return dir;
}

/** Reads, changes and rewrites one JSON file of a scratch copy. */
export function edit<T = any>(dir: string, file: string, change: (json: T) => void): void {
  const path = join(dir, file);
  const json = JSON.parse(readFileSync(path, 'utf8')) as T;
  change(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

/** The faults `fn` throws as a MetadataError (fails the test when it does not throw one). */
export function faultsOf(fn: () => unknown): MetadataFault[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof MetadataError) return err.faults;
    throw err;
  }
  throw new Error('expected a MetadataError');
}
