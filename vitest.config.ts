import { defineConfig } from 'vitest/config';

// One runner for every workspace; each project keeps its own config next to its code.
// Browser tests live in console/e2e with their own config and run after these (scripts/test.mjs).
export default defineConfig({
  test: {
    projects: [
      'metadata/vitest.config.ts',
      'server/vitest.config.ts',
      'ingest/vitest.config.ts',
      'seeds/vitest.config.ts',
      'console/vitest.config.ts',
      'common/vitest.config.ts',
      'plugins/*/vitest.config.ts',
    ],
  },
});
