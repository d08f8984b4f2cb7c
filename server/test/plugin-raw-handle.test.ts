/**
 * The raw database handle (ctx.db, ctx.database) only for plugins declaring `ownTables`
 * (issue 17 item 5): every plugin folder's server source is read, and a plugin that uses the
 * handle without the declaration fails here; at run time the handle of an undeclared plugin
 * throws, naming the plugin, at start and later alike.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { PluginDefinition, PluginServerContext } from '../src/plugin-api';
import { discoverPlugins, loadPlugins } from '../src/plugins/host';
import { guardRawHandle } from '../src/plugins/raw-handle';

const pluginsDir = fileURLToPath(new URL('../../plugins', import.meta.url));

/** the plugin's server sources (tests apart) */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) {
      if (e !== 'test' && e !== 'node_modules') out.push(...sources(p));
    } else if (/\.tsx?$/.test(e) && !/\.(test|e2e)\.tsx?$/.test(e)) out.push(p);
  }
  return out;
}

/** `ctx.db`, `ctx.database`, `plugin.db` … and `const { db } = ctx` */
const USES = [/\b(?:ctx|context|plugin)\s*\??\.\s*(?:db|database)\b/, /\{[^}=]*\b(?:db|database)\b[^}=]*\}\s*=\s*(?:ctx|context|plugin)\b/];
const declares = (id: string) => /\bownTables\s*:/.test(readFileSync(join(pluginsDir, id, 'server', 'index.ts'), 'utf8'));

describe('the raw handle only for plugins declaring ownTables', () => {
  const plugins = discoverPlugins(pluginsDir).map((p) => p.id);

  it('finds the plugin folders', () => {
    expect(plugins.length).toBeGreaterThan(10);
  });

  it('no plugin uses ctx.db / ctx.database in its source without declaring ownTables', () => {
    const offenders: string[] = [];
    for (const id of plugins) {
      if (declares(id)) continue;
      for (const file of sources(join(pluginsDir, id, 'server'))) {
        const lines = readFileSync(file, 'utf8').split('\n');
        lines.forEach((line, i) => {
          if (USES.some((re) => re.test(line))) offenders.push(`${file.slice(pluginsDir.length + 1)}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(offenders, 'these plugins reach the raw handle without definePlugin({ ownTables }): use ctx.repo() (docs/PLUGINS.md "Scope")').toEqual([]);
  });

  it('the domain plugins of the issue hold no raw handle', () => {
    for (const id of ['pool-analytics', 'maintenance', 'master-data', 'shipping', 'inventory', 'reports', 'dashboard'].filter((x) => plugins.includes(x)))
      expect(declares(id), id).toBe(false);
  });

  it('the scan sees a use (the check is not vacuous)', () => {
    expect(USES.some((re) => re.test('  const x = ctx.db.getDialect();'))).toBe(true);
    expect(USES.some((re) => re.test('  const { db, log } = ctx;'))).toBe(true);
    expect(USES.some((re) => re.test('  ctx.database.dialect'))).toBe(true);
    expect(USES.some((re) => re.test('  ctx.repo(x).dbRows()'))).toBe(false);
  });
});

describe('at run time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rti-raw-handle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const plugin = (id: string, body: string) => {
    mkdirSync(join(dir, id, 'server'), { recursive: true });
    writeFileSync(join(dir, id, 'server', 'index.ts'), `export default { id: '${id}', ${body} };\n`);
  };
  const fakeContext = () => ({ id: 'x', db: { query: () => 'raw' }, database: { dialect: 'sqlite' }, log: () => undefined }) as unknown as PluginServerContext;

  it('an undeclared plugin touching ctx.db at start stops the start, naming the plugin', async () => {
    plugin('nohandle', `server(ctx) { ctx.db.query('SELECT 1'); }`);
    const found = discoverPlugins(dir).filter((p) => p.id === 'nohandle');
    await expect(loadPlugins(found, fakeContext)).rejects.toThrow(
      /plugin "nohandle" failed to start: plugin "nohandle" has no raw database handle \(ctx\.db\)/,
    );
  });

  it('a declared plugin gets the handle; an empty reason is refused', async () => {
    plugin('owner', `ownTables: 'its own table', server(ctx) { globalThis.__rawHandleSeen = ctx.db.query(); }`);
    plugin('emptyreason', `ownTables: ' ', server() {}`);
    const all = discoverPlugins(dir);
    await loadPlugins(
      all.filter((p) => p.id === 'owner'),
      fakeContext,
    );
    expect((globalThis as Record<string, unknown>).__rawHandleSeen).toBe('raw');
    await expect(
      loadPlugins(
        all.filter((p) => p.id === 'emptyreason'),
        fakeContext,
      ),
    ).rejects.toThrow(/ownTables is the reason/);
  });

  it('later touches throw too (a call handler), ctx.database as well; a spread of the context does not', () => {
    const def = { id: 'later' } as PluginDefinition;
    const ctx = guardRawHandle(def, fakeContext());
    expect(() => ctx.db).toThrow(/plugin "later" has no raw database handle \(ctx\.db\)/);
    expect(() => ctx.database).toThrow(/plugin "later" has no raw database handle \(ctx\.database\)/);
    expect(() => ({ ...ctx })).not.toThrow();
    expect(guardRawHandle({ id: 'own', ownTables: 'runs' } as PluginDefinition, fakeContext()).database).toEqual({ dialect: 'sqlite' });
  });
});
