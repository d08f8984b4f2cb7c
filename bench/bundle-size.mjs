// Builds the console and prints the gzip size of what the first page loads — the entry
// script, its modulepreloads and CSS referenced by index.html, plus the login route's lazy
// chunks (from Vite's manifest), since /login is the first page everyone opens — next to
// the whole build.
// Reference point: Refine's finefoods-antd ships one ~930 KB gzip bundle with no splitting.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'console/dist');
if (!process.argv.includes('--no-build')) {
  const r = spawnSync('npm', ['run', 'build', '-w', '@rti/console'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstPage = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);

// The login page's chunk and its static imports/CSS, walked through the manifest.
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const loginRoute = [];
const walk = (key) => {
  const m = manifest[key];
  if (!m) return;
  for (const f of [m.file, ...(m.css ?? [])]) if (!firstPage.includes(f) && !loginRoute.includes(f)) loginRoute.push(f);
  for (const k of m.imports ?? []) walk(k);
};
walk('src/pages/login/index.tsx');
if (loginRoute.length === 0) throw new Error('login page not found in dist/.vite/manifest.json');

let first = 0;
console.log('first page (index.html + the /login route chunks):');
for (const f of [...firstPage, ...loginRoute]) {
  const n = gz(join(dist, f));
  first += n;
  console.log(`  ${f.padEnd(48)} ${kb(n)}${loginRoute.includes(f) ? '  (login route)' : ''}`);
}
let total = 0;
let js = 0;
const files = readdirSync(join(dist, 'assets'));
for (const f of files) {
  if (!/\.(js|css)$/.test(f)) continue;
  const n = gz(join(dist, 'assets', f));
  total += n;
  if (f.endsWith('.js')) js++;
}
console.log(`first-page JS+CSS gzip: ${kb(first)} (budget 300 KB: ${first <= 300 * 1024 ? 'within' : 'OVER'})`);
console.log(`whole build gzip: ${kb(total)} in ${js} JS chunks; first page is ${((first / total) * 100).toFixed(0)} % of it`);
console.log(`vs finefoods-antd single bundle 930 KB gzip: first page is ${(first / (930 * 1024)).toFixed(2)}x`);
