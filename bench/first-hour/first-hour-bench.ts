/**
 * "Speed a user feels" (issue 10): a new user's first minutes in headless Debian chromium
 * against a real server process (demo seed, small scale, fresh SQLite; the built console):
 *
 *   1. login page load        — navigation start → the login button is in the page (cold cache)
 *   2. login → dashboard      — click on "Log in" → every dashboard number shows a figure
 *   3. list opened directly   — navigation start → the list's rows are in the page (a reload,
 *                               bookmark or restored tab: cache warm from the steps before)
 *   4. in-app navigation      — click on a side-menu entry → the other list's rows
 *
 * Each is the median of --runs (default 5) in fresh browser contexts, printed next to its
 * floor: the same HTTP requests the browser made for that step (API calls with their bodies
 * and headers, the document for navigations, and for the login page its scripts and styles),
 * replayed from Node in the same run — the login call first, everything else at once — and
 * the ratio browser / floor. The load average is printed before and after.
 *
 *   node bench/first-hour/run.mjs [--runs=5] [--before=<commit> | --build | --rev=<commit>] [--waterfall] [--profile]
 *                                 [--list=/carrier/management/carrier] [--other=/carrier/management/carrier-code]
 *
 * --before=<commit> measures that commit's console and this checkout's side by side (two
 * servers, rounds alternating, so both see the same load) and prints after/before. Otherwise
 * it serves console/dist, or with --build a fresh build in $TMPDIR/rti-first-hour-dist, with
 * --rev=<commit> that commit's console (--dist=<folder>: a build of your own). --waterfall prints the requests of
 * one direct list load up to its list call (start→end ms after navigation start) and the
 * shell's `shell:` marks: where the time before the list call goes; --profile the page's CPU
 * profile of the last run's direct load and navigations (with --build --minify=0 for names; saved to test-output/profiles/*.cpuprofile).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
// @ts-expect-error plain ESM helper shared with scripts/
import { freePort } from '../../scripts/lib/services.mjs';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const argv = process.argv.slice(2);
const opt = (name: string, def: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const flag = (name: string) => argv.includes(`--${name}`) || argv.includes(`--${name}=1`);
const RUNS = Number(opt('runs', '5'));
const LIST = opt('list', '/carrier/management/carrier');
const OTHER = opt('other', '/carrier/management/carrier-code');
const USER = opt('user', 'admin');
const PASSWORD = opt('password', 'Admin@12345');
/** --rev=<commit>: that commit's console (the "before" of a change), built from `git archive` */
const REV = opt('rev', '');
const BEFORE = opt('before', '');
/** --build (or --rev) builds into a folder of its own; else console/dist (or --dist=<folder>) */
const DIST = resolve(
  opt(
    'dist',
    BEFORE
      ? join(os.tmpdir(), 'rti-first-hour-dist')
      : REV
        ? join(os.tmpdir(), `rti-first-hour-dist-${REV.replace(/\W/g, '_')}`)
        : flag('build')
          ? join(os.tmpdir(), 'rti-first-hour-dist')
          : join(root, 'console/dist'),
  ),
);

/**
 * Builds the console of commit `rev` into DIST: its console, plugins, metadata and common
 * folders from `git archive`, this checkout's node_modules, and the console's own package
 * paths pointed at that copy (they would otherwise resolve to this checkout's sources).
 */
function buildRevision(rev: string, out: string): void {
  const src = mkdtempSync(join(os.tmpdir(), 'rti-first-hour-src-'));
  try {
    const tar = spawnSync(
      'sh',
      ['-c', `git archive ${JSON.stringify(rev)} console plugins metadata common tsconfig.base.json tsconfig.json | tar -x -C ${JSON.stringify(src)}`],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (tar.status !== 0) throw new Error(`git archive ${rev} failed`);
    symlinkSync(join(root, 'node_modules'), join(src, 'node_modules'));
    symlinkSync(join(root, 'console/node_modules'), join(src, 'console/node_modules'));
    writeFileSync(
      join(src, 'console/vite.rev.config.ts'),
      `import { mergeConfig } from 'vite';\nimport base from './vite.config';\nexport default mergeConfig(base, { resolve: { alias: { '@rti/console/plugin-api': ${JSON.stringify(join(src, 'console/src/plugin-api.ts'))}, '@rti/console/plugin-meta': ${JSON.stringify(join(src, 'console/src/plugin-meta.ts'))} } } });\n`,
    );
    const r = spawnSync(
      join(root, 'console/node_modules/.bin/vite'),
      ['build', '--config', 'vite.rev.config.ts', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: join(src, 'console'), stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (r.status !== 0) throw new Error(`console build of ${rev} failed`);
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
}
const TARGETS: Record<string, number> = { 'login → dashboard numbers': 1200, 'list opened directly → rows': 1200, 'in-app navigation → rows': 250 };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/**
 * Page-side probes (plain source: tsx's name helpers do not exist in the page): a capture
 * listener notes the last click, a MutationObserver the first time each condition holds
 * (epoch ms, so they survive a reload).
 */
const PROBES = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__seen = {};
  window.__want = {};
  addEventListener('click', () => sessionStorage.setItem('bench:click', String(now())), true);
  const conditions = {
    login: () => Boolean(document.querySelector('[data-testid="login-submit"]')),
    dashboard: () => {
      const values = [...document.querySelectorAll('[data-testid="dashboard-home"] .ant-statistic-content-value')];
      return values.length > 0 && values.every((v) => /\\d/.test(v.textContent || ''));
    },
    rows: () => Boolean(window.__want.path && location.pathname === window.__want.path && document.querySelector('.page-pane:not([hidden]) [data-testid="meta-table"] .ant-table-row')),
  };
  const check = () => {
    for (const k of Object.keys(conditions)) if (!(k in window.__seen) && conditions[k]()) window.__seen[k] = now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  window.__long = [];
  try {
    new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => [e.startTime, e.duration]))).observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;

interface Replay {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}
const DROP = new Set(['content-length', 'host', 'connection', 'cookie', 'origin', 'referer', 'user-agent']);
function recorder(page: Page) {
  const seen: Replay[] = [];
  const on = (r: Request) => {
    const type = r.resourceType();
    if (!/^(document|script|stylesheet|fetch|xhr)$/.test(type)) return;
    const headers = Object.fromEntries(Object.entries(r.headers()).filter(([k]) => !DROP.has(k.toLowerCase())));
    seen.push({ method: r.method(), url: r.url(), headers, body: r.postData() ?? undefined });
  };
  page.on('request', on);
  return { take: () => seen.splice(0), stop: () => page.off('request', on) };
}

/** The floor of a step: its requests over HTTP alone — a login call first (its token replaces the recorded one), the rest at once. */
async function floor(requests: Replay[]): Promise<number> {
  const t = performance.now();
  const send = async (r: Replay, token?: string) => {
    const headers: Record<string, string> = { ...r.headers, 'accept-encoding': 'gzip' };
    if (token && headers.token) headers.token = token;
    const res = await fetch(r.url, { method: r.method, headers, body: r.body, signal: AbortSignal.timeout(30_000) });
    return res.text();
  };
  const login = requests.find((r) => r.url.endsWith('/api/account/login'));
  let token: string | undefined;
  if (login) token = (JSON.parse(await send(login)) as { data?: { token?: string } }).data?.token;
  await Promise.all(requests.filter((r) => r !== login).map((r) => send(r, token)));
  return performance.now() - t;
}

async function startServer(dist: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(os.tmpdir(), 'rti-first-hour-'));
  const port: number = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`,
    MQTT_PORT: '0',
    SIMULATOR_DEVICES: '0',
    SEED_SCALE: 'small',
    LOG_LEVEL: 'warn',
    CONSOLE_DIST: dist,
  };
  const tsx = join(root, 'node_modules/.bin/tsx');
  if (spawnSync(tsx, ['seeds/src/cli.ts', '--if-empty'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0)
    throw new Error('seeding failed');
  const server: ChildProcess = spawn(tsx, ['server/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(`${url}/`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    if (Date.now() > until) throw new Error('server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const seen = (page: Page, key: string, timeout = 30_000) =>
  page
    .waitForFunction((k) => (window as unknown as { __seen: Record<string, number> }).__seen[k], key, { timeout })
    .then((h) => h.jsonValue() as Promise<number>);
/** the step's trailing calls (the rest of the dashboard, the tab's title lookups) finish before the next step */
const settle = (page: Page) => page.waitForTimeout(1500);
const navStart = (page: Page) => page.evaluate(() => performance.timeOrigin);
const clickAt = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem('bench:click')));
const want = (page: Page, path: string) => page.evaluate((p) => ((window as unknown as { __want: Record<string, string> }).__want.path = p), path);

/** The direct load's requests up to its list call, and where the list call started (plain source, like PROBES). */
const WATERFALL = `(() => {
  const res = performance.getEntriesByType('resource');
  const list = res.find((e) => /\\/api\\/[^?]*\\/list$/.test(e.name) && !/permission\\/list/.test(e.name));
  const scripts = res.filter((e) => /\\.js$/.test(e.name));
  const until = list ? list.startTime + 1 : Infinity;
  const short = (n) => n.replace(/^https?:\\/\\/[^/]+/, '').replace(/-[\\w-]{8}\\.(m?js|css)$/, '.$1');
  const lines = [
    ...res.filter((e) => e.startTime <= until || e === list).map((e) => [e.startTime, short(e.name) + ' ' + e.startTime.toFixed(0) + '→' + e.responseEnd.toFixed(0)]),
    ...performance.getEntriesByType('mark').filter((e) => e.name.startsWith('shell:')).map((e) => [e.startTime, '[' + e.name + '] ' + e.startTime.toFixed(0)]),
    ...(window.__long || []).map((x) => [x[0], '(long task ' + x[0].toFixed(0) + '→' + (x[0] + x[1]).toFixed(0) + ')']),
  ];
  const before = scripts.filter((e) => e.startTime <= until);
  const lastScript = Math.max(...before.map((e) => e.responseEnd));
  return {
    summary: 'list call starts ' + (list ? list.startTime.toFixed(0) : '?') + ' ms after navigation (answered ' + (list ? list.responseEnd.toFixed(0) : '?') + '), ' + (list ? (list.startTime - lastScript).toFixed(0) : '?') + ' ms after the last script before it arrived, behind ' + before.length + ' script requests (of ' + scripts.length + ')',
    lines: lines.sort((a, b) => a[0] - b[0]).map((x) => x[1]),
  };
})()`;

async function waterfall(page: Page, url: string, path: string, label: string): Promise<void> {
  await page.goto(`${url}${path}`);
  await want(page, path);
  await seen(page, 'rows');
  const rows = (await page.evaluate(WATERFALL)) as { summary: string; lines: string[] };
  console.log(`${label}: waterfall of ${path} opened directly (ms after navigation start):\n    ${rows.lines.join('\n    ')}\n  ${rows.summary}`);
}

/** --profile: CPU profile of one step in the page, self time by function and by chunk (build with --minify=0 for names). */
async function profiled<T>(page: Page, label: string, fn: () => Promise<T>): Promise<T> {
  if (!flag('profile')) return fn();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const out = await fn();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>; samples: number[]; timeDeltas: number[] };
  };
  const dir = resolve(root, 'test-output/profiles');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `first-hour-${label.replace(/[^\w]+/g, '-')}.cpuprofile`), JSON.stringify(profile));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byFile = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const file = f.url.replace(/^.*\//, '').replace(/-[\w-]{8}\.(m?js)$/, '.$1') || '(native)';
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber}`;
    const d = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(key, (self.get(key) ?? 0) + d);
    byFile.set(file, (byFile.get(file) ?? 0) + d);
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join('\n      ');
  console.log(`  profile of ${label}, ms self by chunk:\n      ${top(byFile, 15)}\n    by function:\n      ${top(self, 40)}`);
  await cdp.detach();
  return out;
}

/** --waterfall: the requests (beyond cached scripts) and long tasks between a click and what it waited for, ms after the click. */
async function afterClick(page: Page, label: string, step: string, clicked: number, shown: number): Promise<void> {
  const rows = (await page.evaluate(`(() => {
    const t0 = ${clicked} - performance.timeOrigin;
    const res = performance.getEntriesByType('resource').filter((e) => e.startTime >= t0 && !(e.transferSize === 0 && /\\/assets\\//.test(e.name)));
    const scripts = performance.getEntriesByType('resource').filter((e) => e.startTime >= t0 && /\\/assets\\//.test(e.name));
    const lines = [
      ...res.map((e) => [e.startTime, e.name.replace(/^https?:\\/\\/[^/]+/, '').replace(/-[\\w-]{8}\\.(m?js|css)$/, '.$1') + ' ' + (e.startTime - t0).toFixed(0) + '→' + (e.responseEnd - t0).toFixed(0)]),
      ...performance.getEntriesByType('mark').filter((e) => e.name.startsWith('shell:') && e.startTime >= t0).map((e) => [e.startTime, '[' + e.name + '] ' + (e.startTime - t0).toFixed(0)]),
      ...(window.__long || []).filter((x) => x[0] >= t0).map((x) => [x[0], '(long task ' + (x[0] - t0).toFixed(0) + '→' + (x[0] + x[1] - t0).toFixed(0) + ')']),
    ];
    return [...lines.sort((a, b) => a[0] - b[0]).map((x) => x[1]), scripts.length + ' script requests after the click, the last answered ' + Math.max(0, ...scripts.map((e) => e.responseEnd - t0)).toFixed(0)];
  })()`)) as string[];
  console.log(
    `${label}: ${step}: ${(shown - clicked).toFixed(0)} ms after the click; requests and long tasks (ms after the click):\n    ${rows.join('\n    ')}`,
  );
}

const STEPS = ['login page load', 'login → dashboard numbers', 'list opened directly → rows', 'in-app navigation → rows'] as const;
type Step = (typeof STEPS)[number];
interface Variant {
  label: string;
  dist: string;
  url: string;
  stop: () => Promise<void>;
  ms: Record<string, number[]>;
  floors: Record<string, number[]>;
  calls: Record<string, number>;
}

/** One round of the four steps in a fresh browser context (cold cache); run -1 is unmeasured. */
async function round(browser: Browser, v: Variant, run: number): Promise<void> {
  const last = run === RUNS - 1;
  const ctx: BrowserContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ctx.addInitScript({ content: PROBES });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`  [page error] ${e.message}`));
  const rec = recorder(page);
  const note = async (step: Step, value: number) => {
    const reqs = rec.take();
    // the browser's own requests of the step; for API-only steps, scripts came from code, not the network floor
    // (the live-event stream never ends: it is not part of any step's floor)
    const replay = reqs.filter(
      (r) => !/stream|events/.test(r.url) && (step === 'login page load' || r.method === 'POST' || (r.method === 'GET' && !/\/assets\//.test(r.url))),
    );
    const f = await floor(replay);
    v.calls[step] = replay.length;
    if (run >= 0) {
      v.ms[step].push(value);
      v.floors[step].push(f);
    }
  };
  try {
    // 1. the login page, cold cache
    await page.goto(`${v.url}/login`);
    await note('login page load', (await seen(page, 'login')) - (await navStart(page)));

    // 2. login click → dashboard numbers (home page)
    await page.getByTestId('login-username').fill(USER);
    await page.getByTestId('login-password').fill(PASSWORD);
    rec.take();
    await page.getByTestId('login-submit').click();
    const numbers = await seen(page, 'dashboard');
    const loginClick = await clickAt(page);
    await note('login → dashboard numbers', numbers - loginClick);
    if (last && flag('waterfall')) await afterClick(page, v.label, 'login → dashboard numbers', loginClick, numbers);
    await settle(page);
    rec.take();

    // 3. the list opened directly (a reload or bookmark: cache warm from the steps before)
    const direct = () =>
      page.goto(`${v.url}${LIST}`).then(async () => {
        await want(page, LIST);
        return (await seen(page, 'rows')) - (await navStart(page));
      });
    await note('list opened directly → rows', await (last ? profiled(page, `${v.label}: list opened directly`, direct) : direct()));
    await settle(page);
    rec.take();

    // 4. in-app navigation: the other list from the side menu, and back
    for (const path of [OTHER, LIST]) {
      await want(page, path);
      await page.evaluate(() => delete (window as unknown as { __seen: Record<string, number> }).__seen.rows);
      const nav = () =>
        page
          .getByTestId(`menu:${path}`)
          .click()
          .then(() => seen(page, 'rows'));
      const shown = await (last ? profiled(page, `${v.label}: in-app navigation to ${path}`, nav) : nav());
      const clicked = await clickAt(page);
      await note('in-app navigation → rows', shown - clicked);
      if (last && flag('waterfall')) {
        await afterClick(page, v.label, `navigation to ${path}`, clicked, shown);
      }
      await settle(page);
      rec.take();
    }
    if (last && flag('waterfall')) await waterfall(page, v.url, LIST, v.label);
  } finally {
    rec.stop();
    await ctx.close();
  }
}

function build(dist: string): void {
  const r = spawnSync(
    join(root, 'console/node_modules/.bin/vite'),
    ['build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn', ...(opt('minify', '1') === '0' ? ['--minify', 'false'] : [])],
    { cwd: join(root, 'console'), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (r.status !== 0) throw new Error('console build failed');
}

async function main() {
  // --before=<rev>: that commit's console and this checkout's, each behind its own server, measured in alternating rounds (same load)
  const dists: Array<{ label: string; dist: string }> = [];
  if (BEFORE) {
    const before = join(os.tmpdir(), `rti-first-hour-dist-${BEFORE.replace(/\W/g, '_')}`);
    buildRevision(BEFORE, before);
    build(DIST);
    dists.push({ label: `before (${BEFORE})`, dist: before }, { label: 'after (this checkout)', dist: DIST });
  } else {
    if (REV) buildRevision(REV, DIST);
    // its own output folder: others' browser tests keep reading console/dist meanwhile
    else if (flag('build')) build(DIST);
    dists.push({ label: REV ? `console of ${REV}` : 'console', dist: DIST });
  }
  for (const d of dists)
    if (!existsSync(join(d.dist, 'index.html'))) throw new Error(`${d.dist}/index.html missing: pass --build (or npm run build -w @rti/console)`);
  console.log(`load average before: ${load()} (${os.cpus().length} CPUs)`);
  const variants: Variant[] = [];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
  try {
    for (const d of dists) {
      const srv = await startServer(d.dist);
      variants.push({ ...d, ...srv, ms: Object.fromEntries(STEPS.map((s) => [s, []])), floors: Object.fromEntries(STEPS.map((s) => [s, []])), calls: {} });
      console.log(`${d.label}: ${d.dist} at ${srv.url}`);
    }
    // one unmeasured round warms each server (first queries, precompressed assets in the page cache); the order alternates
    for (let run = -1; run < RUNS; run++) {
      for (const v of run % 2 ? [...variants].reverse() : variants) await round(browser, v, run);
    }
  } finally {
    await browser.close();
    for (const v of variants) await v.stop();
  }
  for (const v of variants) {
    console.log(`\n${v.label}\n${'step'.padEnd(30)} ${'median'.padStart(8)} ${'floor'.padStart(8)} ${'ratio'.padStart(6)}  target   samples (ms)`);
    for (const s of STEPS) {
      const m = median(v.ms[s]);
      const f = median(v.floors[s]);
      const target = TARGETS[s];
      const verdict = target ? `${m < target ? '<' : '≥'} ${(target / 1000).toFixed(2)} s` : '';
      console.log(
        `${s.padEnd(30)} ${`${m.toFixed(0)} ms`.padStart(8)} ${`${f.toFixed(0)} ms`.padStart(8)} ${(m / f).toFixed(1).padStart(6)}  ${verdict.padEnd(8)} ${v.ms[s].map((x) => x.toFixed(0)).join(' ')}  (floor: ${v.calls[s]} requests)`,
      );
    }
  }
  if (variants.length === 2)
    console.log(`\nafter / before: ${STEPS.map((s) => `${s} ${(median(variants[1].ms[s]) / median(variants[0].ms[s])).toFixed(2)}`).join(', ')}`);
  console.log(`load average after: ${load()}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
