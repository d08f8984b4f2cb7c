import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'screen-settings', include: ['test/**/*.test.ts'], environment: 'node' },
});
