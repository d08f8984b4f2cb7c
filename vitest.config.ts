import { defineConfig } from 'vitest/config';

// One runner for every workspace; each project keeps its own config next to its code.
export default defineConfig({
  test: {
    projects: ['metadata', 'server', 'ingest', 'console', 'seeds', 'plugins/*'].flatMap((p) => [`${p}/vitest.config.ts`]),
  },
});
