#!/usr/bin/env node
// npm run new:report-plugin <name> [-- --title "Acme daily" --task <taskName key>[,<mail key>] --page /inventory-report/<path> --dir <plugins dir>]
//
// Writes plugins/<name>/: a customer report plugin that works as written — a report definition
// reading the inventory plugin's figures (@rti/plugin-inventory/figures), its page in the report
// group and a standalone page under /inventory-report, menu entries with the calls the pages make,
// a scheduled-mail task type, labels and texts in en-US, zh-CN and ja-JP, and a test. The server,
// the console, the permission catalogue, the scheduler and the test runner find every plugin
// folder by themselves, so nothing outside the folder is edited (docs/PLUGINS.md "A customer
// report plugin"). A name that is not an id or is taken is refused before anything is written.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (flag) => {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const pluginsDir = resolve(opt('--dir') ?? join(root, 'plugins'));
const title = opt('--title');
const taskOpt = opt('--task');
const standalone = opt('--page');
const name = args[0];

function refuse(message) {
  console.error(`new:report-plugin: ${message}; nothing written.`);
  process.exit(1);
}

// an id: the folder, the package (@rti/plugin-<id>), the report name and its call prefix
if (!name) refuse("give the plugin's name, e.g. npm run new:report-plugin acme-daily");
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 40)
  refuse(`"${name}" is not a valid id (lower-case letters and digits, words joined by single hyphens, starting with a letter, at most 40 characters)`);
const taken = existsSync(pluginsDir) ? readdirSync(pluginsDir) : [];
if (taken.includes(name)) refuse(`a plugin "${name}" exists already (${relative(process.cwd(), join(pluginsDir, name)) || '.'})`);
// the report's calls must not shadow a plugin's or the core's: /<name>/list and /<name>/export
const reserved = new Set([
  'inventory-report',
  'report',
  'organization',
  'permission',
  'account',
  'metadata',
  'inventory',
  'idle',
  'gps',
  'truck',
  'map',
  'file',
  'task-config',
]);
// …nor a resource's generated calls (/<resource>/list, or its apiPath)
const resourceFiles = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .filter((f) => String(f).endsWith('.json'))
        .map((f) => join(dir, String(f)))
    : [];
for (const file of [join(root, 'metadata', 'resources'), ...taken.map((id) => join(pluginsDir, id, 'metadata', 'resources'))].flatMap(resourceFiles)) {
  const res = JSON.parse(readFileSync(file, 'utf8'));
  if (res.name === name || (res.apiPath ?? '').split('/')[1] === name) reserved.add(name);
}
if (reserved.has(name)) refuse(`"${name}" is a call prefix of the product (its calls /${name}/… exist already)`);
if (standalone !== undefined && !/^\/inventory-report\/[a-z0-9-]+$/.test(standalone))
  refuse(`--page "${standalone}" must be /inventory-report/<letters, digits, hyphens>`);
const pagePath = standalone ?? `/inventory-report/${name}`;

const camel = name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
const label =
  title ??
  name
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
const enumsOf = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {});
const taskNames = [enumsOf(join(root, 'metadata', 'enums.json')), ...taken.map((id) => enumsOf(join(pluginsDir, id, 'metadata', 'enum-values.json')))].flatMap(
  (e) => e.taskName ?? [],
);
const keyOf = (e) => e.label.slice('enums.taskName.'.length);
let tasks;
let newTask = null;
if (taskOpt) {
  tasks = taskOpt.split(',');
  const unknown = tasks.filter((k) => !taskNames.some((e) => keyOf(e) === k));
  if (unknown.length) refuse(`no task name ${unknown.map((k) => `"${k}"`).join(', ')} in metadata/enums.json taskName (leave --task out to add one)`);
} else {
  // a task name of its own: the next value after every value taken (1000 and up for customer plugins)
  const value = Math.max(999, ...taskNames.map((e) => Number(e.value)).filter(Number.isFinite)) + 1;
  if (taskNames.some((e) => keyOf(e) === `${camel}Report`)) refuse(`the task name "${camel}Report" is taken`);
  newTask = { value, label: `enums.taskName.${camel}Report` };
  tasks = [`${camel}Report`];
}

const T = {
  'en-US': {
    title: label,
    inStock: 'In stock',
    available: 'Available',
    idle: 'Idle',
    inTransitIn: 'In transit in',
    level: 'Level',
    mail: '{{count}} rows: stock per warehouse and carrier code, {{below}} below their minimum.',
    task: `${label} report`,
  },
  'zh-CN': {
    title: label,
    inStock: '在库',
    available: '可用',
    idle: '闲置',
    inTransitIn: '在途入库',
    level: '水位',
    mail: '共 {{count}} 行:各仓库、各器具代码的库存,{{below}} 个低于下限。',
    task: `${label} 报表`,
  },
  'ja-JP': {
    title: label,
    inStock: '在庫',
    available: '利用可能',
    idle: '滞留',
    inTransitIn: '入庫輸送中',
    level: '水準',
    mail: '{{count}} 行:倉庫・器具コード別の在庫、下限未満 {{below}} 件。',
    task: `${label} レポート`,
  },
};

const files = {
  'package.json':
    JSON.stringify(
      {
        name: `@rti/plugin-${name}`,
        version: '0.1.0',
        private: true,
        type: 'module',
        dependencies: { '@rti/console': '*', '@rti/plugin-inventory': '*', '@rti/server': '*' },
      },
      null,
      2,
    ) + '\n',
  'tsconfig.json':
    JSON.stringify(
      {
        extends: '../../tsconfig.base.json',
        compilerOptions: { noEmit: true, paths: { '@rti/server/*': ['../../server/src/*'] } },
        include: ['server', 'console', 'test'],
      },
      null,
      2,
    ) + '\n',
  'vitest.config.ts': `import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: '${name}', include: ['test/**/*.test.ts'], environment: 'node', testTimeout: 60000, hookTimeout: 60000 } });
`,
  'server/index.ts': `import { definePlugin } from '@rti/server/plugin-api';
import { figuresReader } from '@rti/plugin-inventory/figures';

/** ${label}: stock per warehouse and carrier code now, as the inventory plugin counts it; mailed by task ${tasks.join(', ')}. */
export default definePlugin({
  id: '${name}',
  dependsOn: ['inventory'],
  perOrganisation: true, // off in an organisation until an administrator switches it on
  server(ctx) {
    const figures = figuresReader(ctx);
    ctx.reports.define({
      name: '${name}',
      title: '${name}.title',
      path: '/${name}',
      parameters: [{ name: 'warehouseId', type: 'ref', label: 'fields.warehouse', ref: { resource: 'warehouse', label: 'name' } }],
      columns: [
        { key: 'warehouseName', label: 'fields.warehouse' },
        { key: 'carrierCode', label: 'fields.carrierCode' },
        ...['inStock', 'available', 'idle', 'inTransitIn'].map((key) => ({ key, label: \`${name}.\${key}\`, type: 'int' as const })),
        { key: 'level', label: '${name}.level' },
      ],
      chart: { type: 'bar', x: 'carrierCode', y: ['inStock', 'available'] },
      async rows(q, w) {
        const { rows } = await figures.byCode(q.ctx, q.params as { warehouseId?: number }, q.t);
        return { list: rows.slice(w.offset, w.offset + w.limit), total: rows.length };
      },
      schedule: {
        taskName: ${tasks.length === 1 ? `'${tasks[0]}'` : `[${tasks.map((k) => `'${k}'`).join(', ')}]`},
        parameters: () => ({}),
        tally: (row) => row.levelKey,
        summary: (run, r) => run.t('${name}.mail', { count: r.rows, below: r.counts.below ?? 0 }),
      },
    });
  },
});
`,
  'console/index.ts': `import { defineConsolePlugin, reportPage } from '@rti/console/plugin-api';

// the page in the report group, and the same report standalone under /inventory-report
export default defineConsolePlugin({
  id: '${name}',
  pages: [
    { id: '${name}', path: '/report/${name}/list', title: 'menu.${camel}', component: reportPage('${name}') },
    { id: '${name}-page', path: '${pagePath}', title: 'menu.${camel}', component: reportPage('${name}') },
  ],
});
`,
  'test/report.test.ts': `import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
beforeAll(async () => void (ts = await startTestServer({ plugins: ['shipping', 'inventory', '${name}'] })));
afterAll(() => ts?.close());

it('lists, exports and is a scheduler task type', async () => {
  expect((await ts.a.call('/${name}/list', {})).body.code).toBe(0);
  expect((await ts.a.fetch('/${name}/export', {})).headers.get('content-type')).toContain('spreadsheet');
  expect(ts.server.reports.task('${tasks[0]}')).toBeTruthy();
});
`,
  'metadata/menu.json':
    JSON.stringify(
      {
        groups: [
          {
            key: 'report',
            items: [
              { path: `/report/${name}/list`, label: `menu.${camel}`, page: name },
              { path: pagePath, label: `menu.${camel}`, page: `${name}-page`, hidden: true, standalone: true, calls: [`/${name}/list`, `/${name}/export`] },
            ],
          },
        ],
      },
      null,
      2,
    ) + '\n',
  ...(newTask ? { 'metadata/enum-values.json': JSON.stringify({ taskName: [newTask] }, null, 2) + '\n' } : {}),
};
for (const [lng, t] of Object.entries(T)) {
  files[`metadata/locales/${lng}.json`] =
    JSON.stringify({ menu: { [camel]: t.title }, ...(newTask ? { enums: { taskName: { [`${camel}Report`]: t.task } } } : {}) }, null, 2) + '\n';
  const { task: _task, ...texts } = t;
  files[`server/messages/${lng}.json`] = JSON.stringify({ [name]: texts }, null, 2) + '\n';
}

const dir = join(pluginsDir, name);
for (const [file, text] of Object.entries(files)) {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}
const code = Object.entries(files).filter(([f]) => f.endsWith('.ts') && f !== 'vitest.config.ts');
const lines = code.reduce((n, [, text]) => n + text.trimEnd().split('\n').length, 0);
console.log(
  `wrote ${relative(process.cwd(), dir) || dir}: ${Object.keys(files).length} files, ${lines} lines of plugin code (${code.map(([f, text]) => `${f} ${text.trimEnd().split('\n').length}`).join(', ')})`,
);
console.log(`task name${tasks.length > 1 ? 's' : ''}: ${tasks.join(', ')}${newTask ? ` (value ${newTask.value}, added by metadata/enum-values.json)` : ''}`);
if (pluginsDir === join(root, 'plugins')) {
  // the generated enum constants include the new task name; npm links the new workspace
  if (newTask) execFileSync(process.execPath, [join(root, 'metadata/scripts/gen-enums.mjs')], { stdio: 'inherit' });
  if (!args.includes('--no-install')) execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  console.log(
    `next: npx vitest run --project ${name}; npm run build -w @rti/console; restart the server; switch it on for an organisation: Reports → Customer reports (/report/customer-reports, or the call /organization/plugin/update {"plugin":"${name}","enabled":true})`,
  );
}
