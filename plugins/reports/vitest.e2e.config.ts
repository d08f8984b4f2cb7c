import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser test of a report page: headless Debian chromium against the built console
// (npm run build -w @rti/console) served by an in-process server.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { name: 'reports-browser', include: ['test/**/*.e2e.ts'], environment: 'node', fileParallelism: false, testTimeout: 90000, hookTimeout: 120000 },
});
