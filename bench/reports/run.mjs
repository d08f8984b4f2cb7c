// `node bench/reports/run.mjs [--warehouses=500] [--codes=50] [--days=100] [--carriers=200000] [--calls=5]`: runs reports-bench.ts under tsx (the server is TypeScript).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, '../../node_modules/.bin/tsx');
const r = spawnSync(tsx, [join(here, 'reports-bench.ts'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: join(here, '../..') });
process.exit(r.status ?? 1);
