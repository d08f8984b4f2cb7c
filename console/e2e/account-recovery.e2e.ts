// Forgotten password and ticket login (issue 21 #1, #2), as a user and an integrator do them:
// on the organisation's login page "Forgot password?", the user name, the code read from the
// server's mail outbox, a new password, then a login with it; an integrator's portal asks for
// a ticket with the organisation's open-API token and the browser it opens is signed in.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, shot } from './support/browser';

let browser: Browser;
let page: Page;
const suffix = Date.now().toString(36).slice(-5);
const USER = `recover.${suffix}`;
const EMAIL = `recover.${suffix}@example.com`;
const FIRST = 'First@12345';
const NEXT = 'Next@123456';

/** A call with a session or token from node (the test's own setup, not the page's). */
async function api<T = any>(path: string, body: unknown, token?: string): Promise<{ code: number; message: string; data: T }> {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Token: token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; message: string; data: T };
}

const outbox = () => join(inject('dataDir'), 'outbox');
const mailsTo = (address: string): string[] => {
  let files: string[] = [];
  try {
    files = readdirSync(outbox())
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(join(outbox(), f), 'utf8')).filter((m) => m.toLowerCase().includes(`to: ${address.toLowerCase()}`));
};

let adminToken = '';
beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  const admin = await api<{ token: string }>('/account/login', { username: 'admin', password: 'Admin@12345', entryCode: 'demo' });
  expect(admin.code, admin.message).toBe(0);
  adminToken = admin.data.token;
  const role = (await api<{ list: Array<{ id: number }> }>('/role/list', { name: 'Operator' }, adminToken)).data.list[0];
  const made = await api('/user/create', { name: USER, realName: 'Recovery Test', email: EMAIL, password: FIRST, roleIds: [role.id] }, adminToken);
  expect(made.code, made.message).toBe(0);
});
afterAll(async () => browser?.close());

test('a user who forgot the password gets a code by mail, sets a new password and logs in with it', { timeout: 120_000 }, async () => {
  await page.goto(`${baseUrl()}/demo/login`);
  await page.getByTestId('login-forgot').click();
  await page.getByTestId('forgot-account').fill(USER);
  await page.getByTestId('forgot-send').click();
  await page.getByTestId('forgot-sent').waitFor();
  // the code is mailed after the answer: wait for it in the outbox
  await expect.poll(() => mailsTo(EMAIL).length, { timeout: 15_000 }).toBe(1);
  const code = /Subject: Your verification code: (\d{6})/.exec(mailsTo(EMAIL)[0])![1];
  await shot(page, 'forgot-password-sent');

  // a wrong code first: refused in place, the form stays
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await page.getByTestId('forgot-code').fill(wrong);
  await page.getByTestId('forgot-new').fill(NEXT);
  await page.getByTestId('forgot-confirm').fill(NEXT);
  await page.getByTestId('forgot-submit').click();
  await expect.poll(() => page.getByTestId('forgot-error').textContent()).toContain('wrong or has expired');

  await page.getByTestId('forgot-code').fill(code);
  await page.getByTestId('forgot-submit').click();
  await page.getByTestId('login-notice').waitFor();
  expect(await page.getByTestId('login-username').inputValue()).toBe(USER);
  await page.getByTestId('login-password').fill(NEXT);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('user-menu').waitFor({ timeout: 30_000 });
  // the old password no longer works
  expect((await api('/account/login', { username: USER, password: FIRST, entryCode: 'demo' })).code).toBe(10009);
});

test("an integrator's ticket signs the browser in without a password, once", { timeout: 120_000 }, async () => {
  const token = (await api<{ token: string }>('/organization-token/create', {}, adminToken)).data.token;
  const asked = await api<{ loginPath: string }>('/account/authLogin', { username: USER }, token);
  expect(asked.code, asked.message).toBe(0);
  const fresh = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  await fresh.goto(baseUrl() + asked.data.loginPath);
  await fresh.getByTestId('user-menu').waitFor({ timeout: 30_000 });
  // the ticket left the address bar, and it is spent
  expect(fresh.url()).not.toContain('ticket=');
  const again = await (await browser.newContext()).newPage();
  await again.goto(baseUrl() + asked.data.loginPath);
  await expect.poll(() => again.getByTestId('login-error').textContent()).toContain('invalid, has been used or has expired');
  await shot(again, 'ticket-login-reused');
});
