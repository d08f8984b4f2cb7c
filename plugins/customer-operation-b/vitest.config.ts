import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'customer-operation-b', include: ['test/**/*.test.ts'], environment: 'node', testTimeout: 60000, hookTimeout: 60000 },
});
