// Every language, everywhere (issue 10): an administrator walks every screen of the menu (and
// each list's create form and first detail) in zh-CN and in ja-JP; a text shown on a screen
// that equals an en-US catalogue string whose translation in that language differs is English
// left standing where a translation exists — the test fails naming the screen, the text and
// the catalogue key. Proper names, units and demo data that happen to equal an English string
// are allowed by name (ALLOWED).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, login, shot } from './support/browser';

type Lang = 'zh-CN' | 'ja-JP';
const root = resolve(__dirname, '../..');

/** Texts that may read the same in every language: abbreviations, units, names of the demo data. */
const ALLOWED = new Set([
  'SN',
  'MAC',
  'GPS',
  'RFID',
  'UUID',
  'IP',
  'RSSI',
  'API',
  'MSN',
  'ID',
  'URL',
  'Token',
  'Cron',
  'admin',
  'Admin',
  'Demo',
  'OK',
  // rows of the demo seed typed in English by their owners (a role and a user named Operator, dictionary
  // entries, city names of locations and warehouses): data, shown as entered, not interface text
  'Operator',
  'Blue',
  'Grey',
  'Shanghai',
  'Shenzhen',
  'Tokyo',
  'Osaka',
]);

const flat = (d: unknown, p = '', out = new Map<string, string>()): Map<string, string> => {
  if (d && typeof d === 'object' && !Array.isArray(d)) for (const [k, v] of Object.entries(d)) flat(v, p ? `${p}.${k}` : k, out);
  else if (typeof d === 'string') out.set(p, d);
  return out;
};
const read = (file: string) => (existsSync(file) ? flat(JSON.parse(readFileSync(file, 'utf8'))) : new Map<string, string>());

/** Every catalogue the screens read: metadata, console, generated screens, plugins (console and server). */
function catalogue(lang: string): Map<string, string> {
  const files = [
    join(root, 'metadata/locales'),
    join(root, 'console/src/locales'),
    join(root, 'console/src/meta/locales'),
    join(root, 'server/src/i18n/messages'),
  ];
  for (const p of readdirSync(join(root, 'plugins')))
    files.push(join(root, 'plugins', p, 'console/locales'), join(root, 'plugins', p, 'server/messages'), join(root, 'plugins', p, 'metadata/locales'));
  const out = new Map<string, string>();
  for (const dir of files) for (const [k, v] of read(join(dir, `${lang}.json`))) out.set(k, v);
  return out;
}

/** en-US text → its keys, for the strings the language translates differently (templates as patterns). */
function englishLeftovers(lang: Lang) {
  const en = catalogue('en-US');
  const other = catalogue(lang);
  const otherValues = new Set(other.values());
  const exact = new Map<string, string>();
  const patterns: Array<{ re: RegExp; key: string }> = [];
  for (const [key, text] of en) {
    const translated = other.get(key);
    if (translated === undefined || translated === text || otherValues.has(text)) continue;
    const literal = text.replace(/\{\{[^}]+\}\}/g, '');
    if ((literal.match(/[A-Za-z]/g) ?? []).length < 3 || ALLOWED.has(text)) continue;
    if (text.includes('{{')) {
      const re = new RegExp(
        `^${text
          .split(/\{\{[^}]+\}\}/)
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+?')}$`,
      );
      patterns.push({ re, key });
    } else if (!exact.has(text)) exact.set(text, key);
  }
  return (text: string): string | null => exact.get(text) ?? patterns.find((p) => p.re.test(text))?.key ?? null;
}

/** Visible texts of the page: text nodes, placeholders and titles of what is shown. */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>();
    const shown = (el: Element | null) => !!el && (el as HTMLElement).checkVisibility?.() !== false && !(el as HTMLElement).closest('[aria-hidden="true"]');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').replace(/\s+/g, ' ').trim();
      const el = n.parentElement;
      if (text && el && !['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName) && shown(el)) out.add(text);
    }
    for (const el of document.querySelectorAll('[placeholder]')) if (shown(el)) out.add((el.getAttribute('placeholder') ?? '').trim());
    return [...out].filter(Boolean);
  });
}

/** Waits for a screen to settle: its content drawn and no spinner for a moment. */
async function settle(page: Page): Promise<void> {
  // standalone screens (the big screen) draw outside the layout
  await page.locator('.shell-content, [data-standalone], #root > *').first().waitFor({ timeout: 20000 });
  await page.waitForTimeout(150);
  const end = Date.now() + 6000;
  while (Date.now() < end && (await page.locator('.ant-spin-spinning:visible, .ant-skeleton-active:visible').count()) > 0) await page.waitForTimeout(100);
  await page.waitForTimeout(150);
}

/** In-app navigation (as a menu click does): the router reads the new address, no reload. */
async function open(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState(null, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settle(page);
}

/** Every page of the menu as the server describes it (metadata menu items). */
async function menuPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const cookie = (n: string) =>
      document.cookie
        .split('; ')
        .find((c) => c.startsWith(n + '='))
        ?.split('=')[1] ?? '';
    const r = await fetch('/api/metadata', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: cookie('admin-token'), OrgId: cookie('admin-org-id') },
      body: '{}',
    });
    const meta = (await r.json()).data as { menu: { groups: Array<{ items?: Array<{ path: string }> }> } };
    return meta.menu.groups.flatMap((g) => (g.items ?? []).map((i) => i.path)).filter((p) => p.startsWith('/'));
  });
}

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => browser?.close());

for (const lang of ['zh-CN', 'ja-JP'] as const) {
  test(`every screen in ${lang} shows no English text where a ${lang} translation exists`, async () => {
    const leftover = englishLeftovers(lang);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // the language is the user's stored choice (SPEC §1): set before any script of the console runs
    await context.addInitScript((l) => {
      localStorage.setItem('admin-locale', l);
      const uid = document.cookie
        .split('; ')
        .find((c) => c.startsWith('user-id='))
        ?.split('=')[1];
      if (uid) localStorage.setItem(`admin-locale:${uid}`, l);
    }, lang);
    const page = await context.newPage();
    try {
      await login(page, 'admin', 'Admin@12345');
      await page.goto(`${baseUrl()}/dashboard-home`);
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      const menu = await menuPaths(page);
      expect(menu.length).toBeGreaterThan(50);
      const found: string[] = [];
      let checked = 0;
      const check = async (path: string) => {
        for (const text of await visibleTexts(page)) {
          checked++;
          if (ALLOWED.has(text)) continue;
          const key = leftover(text);
          if (key) found.push(`${path}: "${text}" (${key})`);
        }
      };
      const visited: string[] = [];
      for (const path of new Set(['/dashboard-home', ...menu])) {
        await open(page, path);
        await check(path);
        visited.push(path);
        // a generated list's own screens: its create form and its first row's detail
        // read in one step: a live list may redraw its rows between a count and a read
        const more = await page.evaluate(() => {
          const visible = (el: Element | null) => (el && (el as HTMLElement).checkVisibility?.() !== false ? el.getAttribute('href') : null);
          const create = visible(document.querySelector('.shell-content [data-testid="meta-create"]'));
          const table = [...document.querySelectorAll('.shell-content [data-testid="meta-table"]')].find(
            (t) => (t as HTMLElement).checkVisibility?.() !== false,
          );
          const detail = table ? visible(table.querySelector('a[href*="/detail/"]')) : null;
          return [create, detail].filter((h): h is string => !!h);
        });
        for (const p of more.filter((x) => x.startsWith('/'))) {
          await open(page, p);
          await check(p);
          visited.push(p);
        }
      }
      // the check itself: an English catalogue text drawn on a screen is found
      const probe = 'Close all tabs';
      expect(leftover(probe), 'the probe is an en-US text translated in this language').not.toBeNull();
      await page.evaluate((text) => {
        const el = document.createElement('div');
        el.id = 'language-probe';
        el.textContent = text;
        document.body.appendChild(el);
      }, probe);
      expect((await visibleTexts(page)).map(leftover)).toContain(leftover(probe));
      await page.evaluate(() => document.getElementById('language-probe')?.remove());
      console.log(`[languages] ${lang}: ${visited.length} screens, ${checked} texts checked`);
      if (found.length) await shot(page, `languages-${lang}`);
      expect(visited.length).toBeGreaterThan(menu.length);
      expect([...new Set(found)]).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);
}
