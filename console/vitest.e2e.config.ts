import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: Debian's chromium driven by playwright-core against the built console served
// by a real server process (global setup). One file at a time: they share that server.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'browser',
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60000,
    hookTimeout: 120000,
  },
});
