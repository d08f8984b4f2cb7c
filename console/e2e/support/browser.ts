// One headless Debian chromium per test file, flags that keep it off the (closed) network.
import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';

export const shotsDir = resolve(__dirname, '../../../test-output/screenshots');

/** how long one browser action or wait may take: a stuck step fails naming its locator, not as the test's time-out */
const ACTION_MS = 20_000;

export async function launch(): Promise<Browser> {
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
      '--no-first-run',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(ACTION_MS);
    return context;
  };
  return browser;
}

export const baseUrl = (): string => inject('baseUrl');

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, `${name}.png`) });
}

/** Logs in through the login form of the given entry code and waits for the layout. */
export async function login(page: Page, username: string, password: string, entryCode?: string): Promise<void> {
  await page.goto(`${baseUrl()}/${entryCode ? entryCode + '/' : ''}login`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('user-menu').waitFor({ timeout: 30000 });
}

/** A call as the page's signed-in user (the console keeps token and organisation in cookies): the answer's envelope. */
export function pageApi(page: Page, path: string, body: unknown = {}): Promise<{ code: number; message: string; data: any }> {
  return page.evaluate(
    async ([p, b]) => {
      const cookie = (name: string) =>
        decodeURIComponent(
          document.cookie
            .split('; ')
            .find((c) => c.startsWith(name + '='))
            ?.split('=')[1] ?? '',
        );
      const r = await fetch(`/api${p}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Token: cookie('admin-token'), OrgId: cookie('admin-org-id') },
        body: JSON.stringify(b),
      });
      return (await r.json()) as { code: number; message: string; data: any };
    },
    [path, body] as const,
  );
}
