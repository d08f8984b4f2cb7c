import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'console',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // the metadata's labels from the files (the console reads them from the server)
    setupFiles: ['test/support/labels.ts'],
    testTimeout: 20000,
  },
});
