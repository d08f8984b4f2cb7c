import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'console',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    testTimeout: 20000,
  },
});
