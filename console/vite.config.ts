import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

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
  // plugin-react's types resolve the root (vitest's) Vite; the plugin itself is version-agnostic.
  plugins: [react() as unknown as PluginOption],
  // Plugin pages live outside this folder under their own tsconfig; JSX is always automatic.
  esbuild: { jsx: 'automatic', jsxImportSource: 'react' },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: { manualChunks: vendorChunk },
    },
  },
});
