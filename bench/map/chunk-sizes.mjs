// Gzip sizes of the console's initial JavaScript (what index.html references) and of the map
// chunks, which load only on map pages:  node bench/map/chunk-sizes.mjs [distDir]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = process.argv[2] ?? 'console/dist';
const assets = join(dist, 'assets');
const gz = (f) => gzipSync(readFileSync(join(assets, f)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/assets\/([^"']+\.(?:js|css))/g)].map((m) => m[1]);
const total = initial.reduce((s, f) => s + gz(f), 0);
console.log(`initial (index.html: ${initial.length} files): ${kb(total)} gzip`);
const groups = [
  ['map page', /^(map-page|map-screen|map-prefetch|map-admin-page|map-view|use-map-points|detail-card|map-settings|map-type-widget)-/],
  ['provider A: deck.gl (points)', /^deck-map-/],
  ['provider A: MapLibre (basemap, parallel)', /^maplibre-base-/],
  ['provider B (L7)', /^l7-map-/],
  ['offline basemap (Natural Earth)', /^(basemap|countries-110m)-/],
  ['echarts (shared with dashboards)', /^(installCanvasRenderer|echarts-setup)-/],
  ['history pages', /^(history-page|history-admin-page|bing-history-page|bing-history-admin-page|sensor-charts)-/],
];
const files = readdirSync(assets);
for (const [label, re] of groups) {
  const got = files.filter((f) => re.test(f) && !initial.includes(f));
  console.log(`${label.padEnd(34)} ${kb(got.reduce((s, f) => s + gz(f), 0)).padStart(10)} gzip  (${got.join(', ')})`);
}
const worker = files.find((f) => f.startsWith('maplibre-gl-worker'));
if (worker) console.log(`${'MapLibre worker (separate file)'.padEnd(34)} ${kb(gz(worker)).padStart(10)} gzip`);
