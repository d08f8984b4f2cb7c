import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests of the maintenance screens: headless Debian chromium against the built console
// (npm run build -w @rti/console) served by an in-process server.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { name: 'maintenance-browser', include: ['test/**/*.e2e.ts'], environment: 'node', fileParallelism: false, testTimeout: 120000, hookTimeout: 120000 },
});
