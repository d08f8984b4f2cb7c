import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'open-api', include: ['test/**/*.test.ts'], environment: 'node', testTimeout: 30000, hookTimeout: 120000 },
});
