/**
 * Screenshots of the map screens against a running server (demo seed), for review:
 *   BASE=http://127.0.0.1:8080 npx tsx bench/map/screenshots.ts
 * Logs in as the demo operator, opens /map with provider A and B, a detail card, and a
 * history with playback; writes test-output/screenshots/map-*.png and prints what it saw.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';

const BASE = process.env.BASE ?? 'http://127.0.0.1:8080';
const USER = process.env.MAP_USER ?? 'operator.demo';
const PASS = process.env.MAP_PASS ?? 'Operator@12345';
const ENTRY = process.env.MAP_ENTRY ?? 'demo';
const out = path.resolve('test-output/screenshots');

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  console.log(`saved ${name}.png`);
}

async function main() {
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && console.log(`[console] ${m.text().slice(0, 200)}`));
    await page.goto(ENTRY ? `${BASE}/${ENTRY}/login` : `${BASE}/login`);
    await page.getByTestId('login-username').fill(USER);
    await page.getByTestId('login-password').fill(PASS);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('user-menu').waitFor({ timeout: 60000 });
    for (const p of ['a', 'b']) {
      await page.goto(`${BASE}/map`);
      await page.getByTestId(`map-type:${p}`).click();
      await page.waitForFunction(() => (window as unknown as { __mapFirstDraw?: number }).__mapFirstDraw, undefined, { timeout: 60000 });
      await page.waitForTimeout(2500);
      const markers = await page.getByTestId('map-canvas').getAttribute('data-markers');
      console.log(`provider ${p}: count ${await page.getByTestId('map-count').getAttribute('data-count')}, markers/clusters ${markers}`);
      await shot(page, `map-provider-${p}`);
    }
    // detail card: click the canvas where a marker is (deck.gl picking through a click at its pixel)
    await page.getByTestId('map-type:a').click();
    await page.goto(`${BASE}/map`);
    await page.waitForFunction(() => (window as unknown as { __mapFirstDraw?: number }).__mapFirstDraw, undefined, { timeout: 60000 });
    await page.waitForTimeout(1500);
    const first = await page.evaluate(async () => {
      const r = await fetch('/api/device-gps/list', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Token: decodeURIComponent(document.cookie.match(/admin-token=([^;]+)/)?.[1] ?? ''),
          OrgId: decodeURIComponent(document.cookie.match(/admin-org-id=([^;]+)/)?.[1] ?? ''),
        },
        body: JSON.stringify({ sn: 'DEMO-G0001', limit: 1 }),
      });
      return (await r.json()).data.list[0]?.id as number | undefined;
    });
    if (first) {
      await page.goto(`${BASE}/map/history?gpsId=${first}`);
      await page.getByTestId('history-player').waitFor();
      await page.waitForTimeout(4000);
      await shot(page, 'map-history');
      await page.getByTestId('history-play').click();
      await page.waitForTimeout(3000);
      console.log(`history time after 3 s of play: ${await page.getByTestId('history-time').textContent()}`);
      await shot(page, 'map-history-playing');
    }
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
