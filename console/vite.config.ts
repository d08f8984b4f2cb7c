import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
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

/*
 * A signed-in load needs every plugin's console entry (before the session is ready) and the
 * layout (before the first page renders); main.tsx imports them only once the entry has run.
 * index.html's boot script (run only with a session cookie, never on /login) adds
 * modulepreload links for these chunks and their static imports, so they download beside the
 * entry: the plugins' at normal priority, the layout's at low. The lists are filled in at build.
 */
const SHELL_PRELOAD: Record<string, RegExp> = {
  plugins: /\/plugins\/[^/]+\/console\/index\.tsx?$/,
  layout: /\/console\/src\/components\/layout\/main-layout\.tsx$/,
};
function shellPreload(): PluginOption {
  return {
    name: 'rti-shell-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const walk = (file: string, into: Set<string>) => {
          if (into.has(file)) return;
          into.add(file);
          for (const dep of byFile.get(file)?.imports ?? []) walk(dep, into);
        };
        // already fetched: the entry's graph, then each earlier list
        const seen = new Set<string>();
        for (const c of chunks) if (c.isEntry) walk(c.fileName, seen);
        for (const [name, re] of Object.entries(SHELL_PRELOAD)) {
          const wanted = new Set<string>();
          for (const c of chunks) if (c.moduleIds.some((id) => re.test(id))) walk(c.fileName, wanted);
          const files = [...wanted].filter((f) => !seen.has(f));
          files.forEach((f) => seen.add(f));
          html = html.replace(`/*shell-preload:${name}*/`, files.map((f) => JSON.stringify(`/${f}`)).join(','));
        }
        return html;
      },
    },
  };
}

/**
 * Writes `<asset>.gz` beside every compressible asset once the bundle is written, so the
 * server sends the bytes as they are instead of gzipping ~4.6 MB per cold map load on every
 * request (server/src/precompressed.ts).
 */
function gzipAssets(): PluginOption {
  let outDir = 'dist';
  return {
    name: 'rti-gzip-assets',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const dir = join(outDir, 'assets');
      if (!existsSync(dir)) return;
      for (const f of readdirSync(dir)) {
        if (!/\.(js|mjs|css|json|svg)$/.test(f)) continue;
        const data = readFileSync(join(dir, f));
        if (data.length >= 1024) writeFileSync(join(dir, `${f}.gz`), gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [...(sameVite ? [react() as unknown as PluginOption] : []), shellPreload(), gzipAssets()],
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
