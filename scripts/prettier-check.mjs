// The formatter's check over the files listed in .prettier-checked (one path a line, # comments).
// `node scripts/prettier-check.mjs --write` formats them instead. Run by `npm test` beside the lint.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const listed = readFileSync(join(root, '.prettier-checked'), 'utf8')
  .split('\n')
  .map((line) => line.replace(/#.*/, '').trim())
  .filter(Boolean);
const missing = listed.filter((f) => !existsSync(join(root, f)));
if (missing.length) {
  console.error(`.prettier-checked names files that do not exist: ${missing.join(', ')}`);
  process.exit(1);
}
const mode = process.argv.includes('--write') ? '--write' : '--check';
const r = spawnSync('npx', ['prettier', mode, ...listed], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
