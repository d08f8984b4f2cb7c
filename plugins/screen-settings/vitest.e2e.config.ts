import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser test of the screen settings editor against the built console and an in-process server.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'screen-settings-browser',
    include: ['test/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90000,
    hookTimeout: 120000,
  },
});
