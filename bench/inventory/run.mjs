// `node bench/inventory/run.mjs [--carriers=1000000] [--warehouses=500] [--codes=50] [--inouts=…] [--days=365] [--calls=10] [--fresh]`: runs inventory-bench.ts under tsx (the server is TypeScript).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, '../../node_modules/.bin/tsx');
const r = spawnSync(tsx, ['--expose-gc', join(here, 'inventory-bench.ts'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: join(here, '../..') });
process.exit(r.status ?? 1);
