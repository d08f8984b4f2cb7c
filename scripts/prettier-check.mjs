// The formatter's check over every tracked source file (TypeScript and JavaScript; .prettierrc:
// 160 columns). `node scripts/prettier-check.mjs --write` formats them instead. Run by `npm test`
// beside the lint. Metadata JSON and Markdown are left as written.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PATTERNS = ['*.ts', '*.tsx', '*.mjs', '*.cjs', '*.js'];
const git = spawnSync('git', ['ls-files', '-z', '--', ...PATTERNS], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
// outside a git checkout: the same files by glob (.prettierignore keeps out what is built)
const files = git.status === 0 ? git.stdout.split('\0').filter(Boolean) : ['**/*.{ts,tsx,mjs,cjs,js}'];
const mode = process.argv.includes('--write') ? '--write' : '--check';
// in slices: a command line holds only so many paths
let status = 0;
for (let i = 0; i < files.length; i += 400) {
  const r = spawnSync('npx', ['prettier', mode, '--log-level', 'warn', ...files.slice(i, i + 400)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) status = r.status ?? 1;
}
if (status === 0 && mode === '--check') console.log(`prettier: ${files.length} files formatted`);
process.exit(status);
