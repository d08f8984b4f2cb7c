// `node bench/pool-analytics/run.mjs [--warehouses=500] [--codes=50] [--carriers=200000] [--trips=5] [--calls=3]`: runs pool-analytics-bench.ts under tsx (the server is TypeScript).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, '../../node_modules/.bin/tsx');
const r = spawnSync(tsx, [join(here, 'pool-analytics-bench.ts'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: join(here, '../..') });
process.exit(r.status ?? 1);
