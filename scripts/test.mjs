// npm test: every vitest project on SQLite, the server suite again on a throwaway MariaDB,
// the upload, import, export and report tests again on S3 (s3rver), then the browser tests
// against the built console. Ends with one "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMariadb, startS3rver, which } from './lib/services.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'test-output');
mkdirSync(out, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
const failedTests = []; // named again at the end, where a CI log's tail shows them

function run(label, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${label}: exit ${r.status} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  if (r.status !== 0) failedSteps.push(label);
  return r.status === 0;
}

function vitest(label, args, env = {}) {
  const json = join(out, `${label.replace(/\W+/g, '-')}.json`);
  run(label, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`], env);
  if (!existsSync(json)) {
    totals.failed += 1; // the runner died before reporting: count the step as a failure
    return;
  }
  const r = JSON.parse(readFileSync(json, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? []) {
    const where = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      failedTests.push(
        `${label}: ${where} > ${a.fullName}\n    ${String(a.failureMessages?.[0] ?? '')
          .split('\n')[0]
          .slice(0, 300)}`,
      );
    if (!failed.length && file.status === 'failed')
      failedTests.push(
        `${label}: ${where}\n    ${String(file.message ?? '')
          .split('\n')[0]
          .slice(0, 300)}`,
      );
  }
}

const only = process.argv[2]; // optional: unit | mysql | s3 | browser | types | lint

// Strict TypeScript over every workspace in one program (tsconfig.json at the root).
if (!only || only === 'types') run('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']);

// Module boundaries (plugins reach others only through package exports), the repository's
// formatting rules, the rules of hooks, promises handled (type-aware), generated enum constants
// current, no enum values re-typed as numbers; Prettier's format on the files it covers so far.
if (!only || only === 'types' || only === 'lint') {
  run('lint', 'npx', ['eslint', '--cache', '--cache-location', 'node_modules/.cache/eslint/', '.']);
  // Prettier's format over every tracked source file
  run('format', 'node', ['scripts/prettier-check.mjs']);
  run('generated enums', 'node', ['metadata/scripts/gen-enums.mjs', '--check']);
}

if (!only || only === 'unit') vitest('unit (SQLite)', []);

if (!only || only === 'mysql') {
  if (which('mariadbd') || which('mysqld')) {
    const db = await startMariadb();
    try {
      // shipping too: its races (one open order per carrier) are only real under InnoDB's locking
      vitest('server and shipping on MariaDB', ['--project', 'server', '--project', 'shipping'], { TEST_MYSQL_URL: db.url });
    } finally {
      await db.stop();
    }
  } else {
    console.log('mariadbd not installed: .ci/run installs it (Debian mariadb-server)');
    if (process.env.CI) {
      totals.failed += 1;
      failedSteps.push('mariadb missing');
    }
  }
}

// Stored files on both storages (issue 22): the suites that upload, download, import, export or
// keep report workbooks run again with every test server on S3 — s3rver, a real S3 server
// process (docs/SERVER.md "Stored files") — through the variables an operator sets.
if (!only || only === 's3') {
  const s3 = await startS3rver();
  try {
    const env = {
      STORAGE_URL: 's3://rti-test',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    // (not hostile-uploads: its storage path is files-storage's, and one s3rver process serving its
    // concurrent flood once answered a put after the SDK's 3 s connect time-out at a load of 16)
    vitest(
      'uploads, imports and exports on S3',
      ['--project', 'server', 'server/test/files-', 'server/test/import-', 'server/test/export-', 'server/test/reports', 'server/test/access-theme'],
      env,
    );
  } finally {
    await s3.cleanup();
  }
}

if ((!only || only === 'browser') && existsSync(join(root, 'console/vitest.e2e.config.ts'))) {
  if (run('console build', 'npm', ['run', 'build', '-w', '@rti/console'])) {
    vitest('browser', ['--config', 'console/vitest.e2e.config.ts']);
    // plugins with screens of their own keep their browser tests beside them
    for (const p of readdirSync(join(root, 'plugins'))) {
      const config = join('plugins', p, 'vitest.e2e.config.ts');
      if (existsSync(join(root, config))) vitest(`browser ${p}`, ['--config', config]);
    }
  } else {
    totals.failed += 1;
  }
}

if (failedTests.length) console.log(`\nfailed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}`);
if (failedSteps.length) console.log(`\nsteps with failures: ${failedSteps.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || failedSteps.length > 0 ? 1 : 0);
