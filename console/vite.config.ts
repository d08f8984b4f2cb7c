import { createRequire } from 'node:module';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

/*
 * @vitejs/plugin-react picks esbuild or rolldown settings from the `vite` it resolves itself.
 * In this workspace it is hoisted next to the root's Vite 8 (vitest's) while the console runs
 * Vite 7, and its rolldown-only dev refresh transform then breaks `vite` dev. Use it only when
 * both resolve the same Vite; otherwise esbuild's automatic JSX (below) builds the same output,
 * without Fast Refresh.
 */
const req = createRequire(import.meta.url);
const sameVite = createRequire(req.resolve('@vitejs/plugin-react')).resolve('vite/package.json') === req.resolve('vite/package.json');

// Vendor code that every page needs goes into a few long-lived chunks; everything else
// (antd components used by one screen, pages, plugins, zh-CN/ja-JP locales) is split by
// route through React.lazy / dynamic import so the first page loads only the shell.
function vendorChunk(id: string): string | undefined {
  if (!id.includes('node_modules')) return undefined;
  if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
  if (/node_modules\/(@refinedev\/core|@tanstack\/(query-core|react-query)|qs|papaparse|pluralize|lodash-es)\//.test(id)) return 'refine';
  if (/node_modules\/(i18next|react-i18next|dayjs)\//.test(id)) return 'i18n';
  if (/node_modules\/(kbar|@refinedev\/kbar|fuse\.js)\//.test(id)) return 'kbar';
  if (/node_modules\/(@ant-design\/(cssinjs|colors|fast-color)|@rc-component\/util|rc-util|@emotion)\//.test(id)) return 'antd-core';
  return undefined;
}

export default defineConfig({
  plugins: sameVite ? [react() as unknown as PluginOption] : [],
  // Plugin pages live outside this folder under their own tsconfig; JSX is always automatic.
  esbuild: { jsx: 'automatic', jsxImportSource: 'react' },
  server: {
    port: 5173,
    // RTI_API points the dev server at another API (default: `npm start` on :8080).
    proxy: { '/api': process.env.RTI_API ?? 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    // dist/.vite/manifest.json: the chunk graph bench/bundle-size.mjs walks per route
    manifest: true,
    rollupOptions: {
      output: { manualChunks: vendorChunk },
      // antd/refine mark modules "use client" for React Server Components; meaningless here.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || (warning.code === 'SOURCEMAP_ERROR' && /use client/.test(warning.message))) return;
        warn(warning);
      },
    },
  },
});
