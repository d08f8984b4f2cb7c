import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser test of the map screens: headless Debian chromium against the built console
// (npm run build -w @rti/console) served by an in-process server with seeded positions.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { name: 'map-browser', include: ['test/**/*.e2e.ts'], environment: 'node', fileParallelism: false, testTimeout: 60000, hookTimeout: 120000 },
});
