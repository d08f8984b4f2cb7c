import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'console',
    include: ['test/**/*.test.ts'],
    environment: 'happy-dom',
    testTimeout: 20000,
  },
});
