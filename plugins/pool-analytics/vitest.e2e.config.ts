import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests of the pool analytics pages: headless Debian chromium against the built console
// (npm run build -w @rti/console) served by an in-process server.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { name: 'pool-analytics-browser', include: ['test/**/*.e2e.ts'], environment: 'node', fileParallelism: false, testTimeout: 90000, hookTimeout: 120000 },
});
