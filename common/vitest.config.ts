import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'common', include: ['test/**/*.test.ts'], environment: 'node' },
});
