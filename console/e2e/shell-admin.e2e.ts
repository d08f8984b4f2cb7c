// Issue 10, the shell's last items as users meet them: the error-log badge is for administrators
// and its page opens inside the shell; a restored record tab is named before its row is read
// again; labels fit in zh-CN and ja-JP at desktop and phone width (side menu, bell tabs, filter
// labels, the header user name, the dashboard's chart axes) — one line, no mid-word break, and
// a label cut short ends in an ellipsis with its full text as a tooltip.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { baseUrl, launch, login, pageApi, shot } from './support/browser';

let browser: Browser;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => browser?.close());
beforeEach(async () => {
  await context?.close();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
});

const api = (path: string, body: unknown = {}) => pageApi(page, path, body);

test('the error-log badge is for administrators; the log opens inside the shell', async () => {
  await login(page, 'admin', 'Admin@12345');
  await page.goto(`${baseUrl()}/dashboard-home`);
  await page.getByTestId('log-button').click();
  await page.getByTestId('log-page').waitFor();
  expect(new URL(page.url()).pathname).toBe('/log');
  // header, side menu and tabs stay around it
  await page.getByTestId('sider').waitFor();
  expect(await page.getByTestId('user-menu').isVisible()).toBe(true);
  await page.locator('[data-testid="tab:/log"]').waitFor();
  expect(await page.locator('[data-testid^="menu:/"]').count()).toBeGreaterThan(5);
  await shot(page, 'log-in-shell');

  // an operator sees no badge (nothing of the System group, so no system log management code)
  await context.close();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  await login(page, 'operator.demo', 'Operator@12345', 'demo');
  await page.goto(`${baseUrl()}/dashboard-home`);
  await page.getByTestId('header-widgets').waitFor();
  await page.waitForLoadState('networkidle');
  expect(await page.getByTestId('log-button').count()).toBe(0);
});

test('a restored record tab is named by its record before its row is read again', async () => {
  await login(page, 'admin', 'Admin@12345');
  const carrier = (await api('/carrier/list', { page: 1, limit: 1 })).data.list[0] as { id: number; sn: string };
  const detail = `/carrier/management/carrier/detail/${carrier.id}`;
  await page.goto(`${baseUrl()}${detail}`);
  await expect.poll(() => page.locator(`[data-testid="tab:${detail}"]`).textContent(), { timeout: 20000 }).toContain(carrier.sn);
  await page.goto(`${baseUrl()}/dashboard-home`);
  await page.locator(`[data-testid="tab:/dashboard-home"]`).waitFor();

  // after a reload the carrier's row is held back: the tab still names it from what was saved
  await page.route('**/api/carrier', (route) => new Promise(() => void route));
  await page.route('**/api/carrier/list', (route) => new Promise(() => void route));
  await page.reload();
  const tab = page.locator(`[data-testid="tab:${detail}"]`);
  await tab.waitFor();
  expect(await tab.textContent()).toContain(carrier.sn);
  expect(await tab.textContent()).not.toContain(`#${carrier.id}`);
  // opened again while its row is still on its way: breadcrumb and window title name it too
  await tab.click();
  await expect.poll(() => page.getByTestId('breadcrumb').textContent()).toContain(carrier.sn);
  expect(await page.title()).toContain(carrier.sn);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

// ---- labels fit ----------------------------------------------------------------------------

interface Problem {
  where: string;
  text: string;
  why: string;
}

/**
 * Labels matching `selector` that wrap onto a second line (a mid-word break in Japanese and
 * Chinese, which have no spaces), spill out of their box, or are cut without an ellipsis and a
 * tooltip naming them in full.
 */
async function labelProblems(p: Page, where: string, selector: string): Promise<Problem[]> {
  expect(await p.locator(selector).count(), `${where}: labels to check`).toBeGreaterThan(0);
  return p.evaluate(
    ([w, sel]) => {
      const out: Array<{ where: string; text: string; why: string }> = [];
      for (const el of document.querySelectorAll<HTMLElement>(sel)) {
        if (!el.checkVisibility() || !el.textContent?.trim()) continue;
        const text = el.textContent.trim();
        // lines the text occupies: distinct tops of its rendered fragments
        const range = document.createRange();
        range.selectNodeContents(el);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push({ where: w, text, why: `wraps onto ${tops.size} lines` });
        // the box that clips it: the element or the nearest ancestor hiding overflow
        let clip: HTMLElement | null = el;
        for (let i = 0; clip && i < 4 && getComputedStyle(clip).overflow === 'visible'; i++) clip = clip.parentElement;
        const box = (clip ?? el).getBoundingClientRect();
        const mine = range.getBoundingClientRect();
        const cut = clip && clip.scrollWidth > clip.clientWidth + 1;
        if (!clip && (mine.right > box.right + 1 || mine.left < box.left - 1)) out.push({ where: w, text, why: 'spills out of its box' });
        if (cut) {
          const ellipsis = [clip!, el].some((x) => getComputedStyle(x).textOverflow === 'ellipsis');
          const titled = [el, el.parentElement, el.parentElement?.parentElement, clip].some((x) =>
            x?.getAttribute('title')?.includes(text.replace(/[:：]$/, '')),
          );
          if (!ellipsis) out.push({ where: w, text, why: 'cut without an ellipsis' });
          if (!titled) out.push({ where: w, text, why: 'cut without a tooltip of the full text' });
        }
      }
      return out;
    },
    [where, selector] as const,
  );
}

/** Every text drawn on the chart canvases stays inside its canvas (recorded by an init script). */
async function chartTextProblems(p: Page, where: string): Promise<Problem[]> {
  return p.evaluate((w) => {
    const drawn =
      (window as unknown as { __drawnTexts?: Array<{ text: string; left: number; right: number; width: number; canvas: HTMLCanvasElement }> }).__drawnTexts ??
      [];
    return drawn
      .filter((d) => d.canvas.isConnected && d.canvas.checkVisibility() && (d.left < -1 || d.right > d.width + 1))
      .map((d) => ({ where: w, text: d.text, why: `drawn at ${Math.round(d.left)}..${Math.round(d.right)} of a ${d.width} px canvas` }));
  }, where);
}

/**
 * Records what ECharts draws on canvases: text and its horizontal extent in canvas pixels. Text
 * drawn under a clip (a scrolling legend's hidden items) is meant to be cut and is left out.
 */
function recordCanvasTexts(): void {
  const list: unknown[] = [];
  (window as unknown as { __drawnTexts: unknown[] }).__drawnTexts = list;
  const P = CanvasRenderingContext2D.prototype;
  const clipped = new WeakMap<CanvasRenderingContext2D, boolean[]>();
  const stack = (c: CanvasRenderingContext2D) => clipped.get(c) ?? (clipped.set(c, [false]), clipped.get(c)!);
  const { save, restore, clip, fillText: fill } = P;
  P.save = function (this: CanvasRenderingContext2D) {
    const s = stack(this);
    s.push(s[s.length - 1]);
    return save.call(this);
  };
  P.restore = function (this: CanvasRenderingContext2D) {
    const s = stack(this);
    if (s.length > 1) s.pop();
    return restore.call(this);
  };
  P.clip = function (this: CanvasRenderingContext2D, ...args: unknown[]) {
    const s = stack(this);
    s[s.length - 1] = true;
    return (clip as (...a: unknown[]) => void).apply(this, args);
  };
  P.fillText = function (this: CanvasRenderingContext2D, text: string, x: number, y: number, maxWidth?: number) {
    const s = stack(this);
    if (!s[s.length - 1]) {
      const w = this.measureText(text).width;
      const align = this.textAlign;
      const start = align === 'center' ? x - w / 2 : align === 'right' || align === 'end' ? x - w : x;
      const m = this.getTransform();
      // rotated labels: both ends of the baseline, transformed
      const ends = [start, start + w].map((px) => m.a * px + m.c * y + m.e);
      list.push({ text, left: Math.min(...ends), right: Math.max(...ends), width: this.canvas.width, canvas: this.canvas });
      if (list.length > 5000) list.splice(0, 1000);
    }
    return maxWidth === undefined ? fill.call(this, text, x, y) : fill.call(this, text, x, y, maxWidth);
  };
}

const LABELS = {
  sideMenu: '[data-testid^="menu:"]',
  bellTabs: '[data-testid^="alert-tab:"] .alert-tab-name',
  filterLabels: '[data-testid="meta-search-form"] .ant-form-item-label > label',
  userName: '.user-menu .user-name',
};

for (const lang of ['zh-CN', 'ja-JP'] as const) {
  for (const [size, viewport] of [
    ['desktop', { width: 1400, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`labels fit in ${lang} at ${size} width`, { timeout: 120_000 }, async () => {
      await context.close();
      context = await browser.newContext({ viewport });
      await context.addInitScript((l) => {
        localStorage.setItem('admin-locale', l);
        const uid = document.cookie
          .split('; ')
          .find((c) => c.startsWith('user-id='))
          ?.split('=')[1];
        if (uid) localStorage.setItem(`admin-locale:${uid}`, l);
      }, lang);
      await context.addInitScript(recordCanvasTexts);
      page = await context.newPage();
      const problems: Problem[] = [];
      await login(page, 'admin', 'Admin@12345');
      await page.goto(`${baseUrl()}/dashboard-home`);
      // the labels load at run time: the page takes its language once they are in
      await page.waitForFunction((l) => document.documentElement.lang === l, lang, { timeout: 20000 });
      await page.locator('canvas').first().waitFor({ timeout: 30000 });
      await page.waitForTimeout(1500); // charts animate in
      problems.push(...(await chartTextProblems(page, 'dashboard charts')));
      expect(await page.evaluate(() => (window as unknown as { __drawnTexts: unknown[] }).__drawnTexts.length), 'chart texts recorded').toBeGreaterThan(10);
      problems.push(...(await labelProblems(page, 'header', LABELS.userName)));

      // side menu (the drawer on a phone), every group open
      if (size === 'phone') {
        await page.getByTestId('sider-trigger').click();
        await page.getByTestId('sider-drawer').waitFor();
      }
      const menuRoot = size === 'phone' ? '[data-testid="sider-drawer"]' : '[data-testid="sider"]';
      // one group after the other (opening one may fold another), each checked open
      const groups = page.locator(`${menuRoot} .ant-menu-root > .ant-menu-submenu > .ant-menu-submenu-title`);
      const count = await groups.count();
      expect(count).toBeGreaterThan(3);
      for (let i = 0; i < count; i++) {
        const g = groups.nth(i);
        await g.scrollIntoViewIfNeeded();
        if ((await g.getAttribute('aria-expanded')) !== 'true') await g.click();
        await page.waitForTimeout(350);
        problems.push(...(await labelProblems(page, 'side menu', `${menuRoot} ${LABELS.sideMenu}`)));
      }
      await shot(page, `labels-${lang}-${size}-menu`);
      if (size === 'phone') await page.keyboard.press('Escape');

      // the bell's category tabs
      await page.getByTestId('alert-bell').click();
      await page.getByTestId('alert-panel').waitFor();
      problems.push(...(await labelProblems(page, 'bell tabs', LABELS.bellTabs)));
      await shot(page, `labels-${lang}-${size}-bell`);
      await page.keyboard.press('Escape');

      // filter labels of lists with long field names
      for (const path of ['/carrier/management/carrier', '/device/device-beacon', '/monitor/carrier-alert']) {
        await page.goto(`${baseUrl()}${path}`);
        await page.getByTestId('meta-search-form').waitFor({ timeout: 20000 });
        problems.push(...(await labelProblems(page, `filters ${path}`, LABELS.filterLabels)));
      }
      await shot(page, `labels-${lang}-${size}-filters`);
      // leaving pages while their calls are on the way is no error (the badge counts real ones)
      const logged = await page.evaluate(
        () => JSON.parse(sessionStorage.getItem('admin-error-log') ?? '[]') as Array<{ message: string; page: string; counted?: boolean }>,
      );
      expect(logged.filter((e) => e.counted !== false).map((e) => `${e.page}: ${e.message}`)).toEqual([]);
      expect([...new Map(problems.map((p) => [JSON.stringify(p), p])).values()]).toEqual([]);
    });
  }
}
