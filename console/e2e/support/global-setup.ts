// Boots one server on a free port with a fresh SQLite file and the demo seed, serving the
// built console (npm test builds it first). Tests read its URL from E2E_BASE_URL.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM helper shared with scripts/
import { freePort } from '../../../scripts/lib/services.mjs';

const root = resolve(__dirname, '../../..');
let server: ChildProcess | undefined;
let dir = '';

export default async function setup(project: TestProject) {
  if (!existsSync(join(root, 'console/dist/index.html'))) throw new Error('console/dist missing: run npm run build -w @rti/console');
  dir = mkdtempSync(join(tmpdir(), 'rti-e2e-'));
  const port: number = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, 'e2e.sqlite')}`,
    MQTT_PORT: '0',
    SIMULATOR_DEVICES: '0',
    SEED_SCALE: 'small',
  };
  const tsx = join(root, 'node_modules/.bin/tsx');
  const seeded = spawnSync(tsx, ['seeds/src/cli.ts', '--if-empty'], { cwd: root, env, stdio: 'inherit' });
  if (seeded.status !== 0) throw new Error('seeding failed');
  server = spawn(tsx, ['server/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60000;
  for (;;) {
    try {
      const r = await fetch(`${base}/`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    if (Date.now() > until) throw new Error('server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 300));
  }
  project.provide('baseUrl', base);
  // the server's data folder: tests read what it wrote there (the mail outbox)
  project.provide('dataDir', dir);
  return async () => {
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
