// npm start: validate metadata, build the console when its sources are newer than the
// build, seed an empty database, then run the server (API, console, embedded ingest).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsx = join(root, 'node_modules/.bin/tsx');

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of readdirSync(path)) {
    if (e === 'node_modules' || e === 'dist') continue;
    max = Math.max(max, newest(join(path, e)));
  }
  return max;
}

function step(label, cmd, args) {
  console.log(`[start] ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[start] ${label} failed`);
    process.exit(r.status ?? 1);
  }
}

step('validating metadata', tsx, ['metadata/src/validate-cli.ts']);

const built = join(root, 'console/dist/index.html');
// metadata and its labels (metadata/, plugins/<id>/metadata/) are served at run time
// (/api/metadata, /api/metadata/labels): a new field or label needs no console build
const sources = Math.max(newest(join(root, 'console')), ...readdirSync(join(root, 'plugins')).map((p) => newest(join(root, 'plugins', p, 'console'))));
if (!existsSync(built) || statSync(built).mtimeMs < sources) step('building the console', 'npm', ['run', 'build', '-w', '@rti/console']);
else console.log('[start] console build is up to date');

step('migrating and seeding an empty database', tsx, ['seeds/src/cli.ts', '--if-empty']);

const server = spawn(tsx, ['server/src/main.ts'], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
