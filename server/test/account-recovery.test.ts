/**
 * Forgotten password (issue 21 #1): /account/send-captcha mails a six-digit code through the
 * platform's mail service (the scheduler's file outbox here), in the user's language;
 * /account/forget-password sets a new password and ends the user's sessions. The same answer
 * whether or not the account exists; expired, reused, wrong and brute-forced codes refused;
 * sends and checks throttled per account and per address; every step in the admin log.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RECOVERY_THROTTLE } from '../src/auth/recovery-calls';
import { RESET_CODE_MAX_ATTEMPTS } from '../src/auth/one-time-codes';
import { hashPassword } from '../src/resources/password';
import { startTestServer, type TestServer } from './support/test-server';

const OLD = 'Old@12345';
const NEW = 'New@12345x';
let ts: TestServer;
let dataDir: string;
let erin: number;

const outbox = () => join(dataDir, 'outbox');
const mails = (): string[] => {
  try {
    return readdirSync(outbox())
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
};

/** Decodes the text part of a nodemailer .eml (quoted-printable or base64) and its subject. */
function readMail(file: string): { to: string; subject: string; text: string } {
  const raw = readFileSync(join(outbox(), file), 'utf8');
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const header = (name: string) => head.match(new RegExp(`^${name}: (.*(?:\\n[ \\t].*)*)`, 'mi'))?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '';
  const words = (s: string) =>
    s.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
  const body = rest.join('\n\n');
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return { to: header('To'), subject: words(header('Subject')), text };
}

/** Waits for the outbox to hold more than `before` mails (the code is mailed after the answer). */
async function nextMail(before: number): Promise<{ to: string; subject: string; text: string }> {
  const until = Date.now() + 10_000;
  while (mails().length <= before) {
    if (Date.now() > until) throw new Error('no mail arrived in the outbox');
    await new Promise((r) => setTimeout(r, 50));
  }
  return readMail(mails()[mails().length - 1]);
}

const codeOf = (mail: { subject: string; text: string }) => {
  const m = /(\d{6})/.exec(mail.subject);
  if (!m) throw new Error(`no code in the mail: ${JSON.stringify(mail).slice(0, 600)}`);
  return m[1];
};
const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });
const send = (username: string, address = '192.0.2.1', extra: Record<string, unknown> = {}, language = 'en-US') =>
  ts.call<any>('/account/send-captcha', { username, entryCode: 'orga', ...extra }, { ...from(address), language });
const reset = (username: string, captcha: string, address = '192.0.2.1', password = NEW) =>
  ts.call<any>('/account/forget-password', { username, entryCode: 'orga', captcha, newPassword: password, confirmPassword: password }, from(address));
const login = (username: string, password: string) => ts.call<any>('/account/login', { username, password, entryCode: 'orga' }, from('192.0.2.99'));

/** Asks for a code and reads it from the outbox. */
async function codeFor(username: string, address = '192.0.2.1'): Promise<string> {
  const before = mails().length;
  const sent = await send(username, address);
  expect(sent.body.code, sent.body.message).toBe(0);
  return codeOf(await nextMail(before));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rti-recovery-'));
  ts = await startTestServer({ plugins: ['scheduler'], config: { dataDir, trustProxy: ['loopback'] } });
  erin = await ts.addUser(ts.orgA, 'erin', { email: 'Erin@Example.com', password: await hashPassword(OLD) });
});
afterAll(async () => {
  await ts?.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await ts.server.db.sequelize.models.SysLoginThrottle.destroy({ where: {} });
  await ts.server.db.models.user.update({ password: await hashPassword(OLD), locked: false }, { where: { id: erin }, hooks: false });
});

describe('send-captcha', () => {
  it('answers the same whether or not the account exists, and mails only an existing one', async () => {
    const before = mails().length;
    const known = await send('erin');
    const unknown = await send('nobody-here');
    const unknownMail = await send('nobody@example.com');
    expect(known.status).toBe(200);
    for (const other of [unknown, unknownMail]) {
      expect(other.status).toBe(known.status);
      expect(other.body).toEqual(known.body);
    }
    expect(known.body.data).toEqual({ minutes: 10 });
    const mail = await nextMail(before);
    expect(mail.to.toLowerCase()).toContain('erin@example.com');
    expect(mail.text).toContain('erin');
    expect(mail.text).toContain(codeOf(mail));
    // give the other two a moment to have mailed, if they (wrongly) would
    await send('erin-probe-end');
    expect(mails().length).toBe(before + 1);
  });

  it('finds the account by its e-mail address, without regard to case', async () => {
    const code = await codeFor('erin@example.COM');
    expect((await reset('erin@example.com', code)).body.code).toBe(0);
    expect((await login('erin', NEW)).body.code).toBe(0);
  });

  it("mails in the user's language: the one of the user's latest login", async () => {
    expect((await ts.call('/account/login', { username: 'erin', password: OLD }, { ...from('192.0.2.50'), language: 'ja-JP' })).body.code).toBe(0);
    const before = mails().length;
    await send('erin', '192.0.2.1', {}, 'zh-CN');
    const mail = await nextMail(before);
    expect(mail.subject).toContain('確認コード');
    expect(mail.text).toContain('有効期間は 10 分');
  });

  it('sends nothing for a locked account, or outside the entry code’s organisation, and says the same', async () => {
    await ts.server.db.models.user.update({ locked: true }, { where: { id: erin }, hooks: false });
    const before = mails().length;
    const locked = await send('erin');
    expect(locked.body.code).toBe(0);
    await ts.server.db.models.user.update({ locked: false }, { where: { id: erin }, hooks: false });
    const foreign = await send('erin', '192.0.2.1', { entryCode: 'orgb' });
    expect(foreign.body).toEqual(locked.body);
    await send('erin-probe-end');
    expect(mails().length).toBe(before);
  });

  it('refuses a send past the bound per account, then per address (10010)', async () => {
    for (let i = 0; i < RECOVERY_THROTTLE.sendAccount.maxFailures; i++) expect((await send('erin', `192.0.2.${10 + i}`)).body.code).toBe(0);
    const refused = await send('erin', '192.0.2.30');
    expect(refused.body.code).toBe(10010);
    expect(refused.body.message).toMatch(/retry in \d+ seconds/);
    // same for a name that does not exist: the bound says nothing about the account
    for (let i = 0; i < RECOVERY_THROTTLE.sendAccount.maxFailures; i++) await send('ghost', `192.0.2.${40 + i}`);
    expect((await send('ghost', '192.0.2.60')).body.code).toBe(10010);
    // one address asking for many names
    for (let i = 0; i < RECOVERY_THROTTLE.sendAddress.maxFailures; i++) expect((await send(`name-${i}`, '192.0.2.70')).body.code).toBe(0);
    expect((await send('name-last', '192.0.2.70')).body.code).toBe(10010);
  });

  it('names the missing account in the caller’s language', async () => {
    const got = await ts.call<any>('/account/send-captcha', {}, { language: 'zh-CN' });
    expect(got.body.code).toBe(10001);
    expect(got.body.message).toBe('请输入用户名或邮箱');
  });
});

describe('forget-password', () => {
  it('sets the new password once, ends every session of the user, and the code is spent', async () => {
    const signedIn = await login('erin', OLD);
    expect(signedIn.body.code).toBe(0);
    const session = signedIn.body.data.token as string;
    const code = await codeFor('erin');
    const done = await reset('erin', code);
    expect(done.body.code, done.body.message).toBe(0);
    const after = await ts.call('/account/info', {}, { token: session });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(10006);
    expect((await login('erin', OLD)).body.code).toBe(10009);
    expect((await login('erin', NEW)).body.code).toBe(0);
    // reused
    const again = await reset('erin', code, '192.0.2.2', 'Other@12345');
    expect(again.body.code).toBe(10015);
    expect((await login('erin', NEW)).body.code).toBe(0);
  });

  it('refuses an expired code', async () => {
    const code = await codeFor('erin');
    await ts.server.db.sequelize.models.SysOneTimeCode.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: erin } });
    const got = await reset('erin', code);
    expect(got.body.code).toBe(10015);
    expect(got.body.message).toMatch(/wrong or has expired/);
    expect((await login('erin', OLD)).body.code).toBe(0);
  });

  it('refuses a wrong code, a code of an earlier mail, and a code for an account that does not exist, alike', async () => {
    const first = await codeFor('erin');
    const second = await codeFor('erin', '192.0.2.3');
    const wrong = String((Number(second) + 1) % 1_000_000).padStart(6, '0');
    const answers = [
      await reset('erin', wrong),
      first !== second ? await reset('erin', first) : null,
      await reset('ghost', second),
      await reset('nobody@example.com', second),
    ].filter(Boolean);
    for (const a of answers) expect(a!.body).toEqual({ code: 10015, message: answers[0]!.body.message, data: null });
    expect((await login('erin', OLD)).body.code).toBe(0);
    expect((await reset('erin', second)).body.code).toBe(0);
  });

  it('locks out a brute force: the code dies after a few wrong tries, the account is throttled', async () => {
    const code = await codeFor('erin');
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < RESET_CODE_MAX_ATTEMPTS; i++) expect((await reset('erin', wrong, `198.51.100.${i + 1}`)).body.code).toBe(10015);
    // locked out for the account, whatever the address
    const blocked = await reset('erin', code, '198.51.100.77');
    expect(blocked.body.code).toBe(10010);
    // once the wait has passed, the code itself is dead
    await ts.server.db.sequelize.models.SysLoginThrottle.destroy({ where: {} });
    expect((await reset('erin', code, '198.51.100.78')).body.code).toBe(10015);
    expect((await login('erin', OLD)).body.code).toBe(0);
    // one address guessing across accounts is bounded too
    const address = '198.51.100.200';
    for (let i = 0; i < RECOVERY_THROTTLE.checkAddress.maxFailures; i++) expect((await reset(`guess-${i}`, '000000', address)).body.code).toBe(10015);
    expect((await reset('guess-last', '000000', address)).body.code).toBe(10010);
  });

  it('checks the new password against SPEC §5 and its confirmation first', async () => {
    const code = await codeFor('erin');
    const weak = await reset('erin', code, '192.0.2.1', 'short');
    expect(weak.body.code).toBe(10001);
    const differ = await ts.call<any>(
      '/account/forget-password',
      { username: 'erin', entryCode: 'orga', captcha: code, newPassword: NEW, confirmPassword: NEW + 'x' },
      { language: 'ja-JP' },
    );
    expect(differ.body.code).toBe(10001);
    expect(differ.body.message).toBe('パスワードが一致しません。新しいパスワードを再入力してください');
    // the code was not spent by refused passwords
    expect((await reset('erin', code)).body.code).toBe(0);
  });

  it('keeps the code out of the database and the admin log, and logs every step in the organisation', async () => {
    const code = await codeFor('erin', '203.0.113.5');
    expect((await reset('erin', '111111', '203.0.113.5')).body.code).toBe(10015);
    expect((await reset('erin', code, '203.0.113.5')).body.code).toBe(0);
    const stored = JSON.stringify(await ts.server.db.sequelize.models.SysOneTimeCode.findAll({ raw: true }));
    expect(stored).not.toContain(code);
    await ts.server.audit.flush();
    const rows = (await ts.server.db.models['admin-log'].findAll({ where: { ip: '203.0.113.5' }, raw: true })) as unknown as Array<Record<string, any>>;
    const steps = rows.map((r) => [r.path, r.responseCode, r.operator, r.orgId]);
    expect(steps).toEqual([
      ['/account/send-captcha', 0, 'erin', ts.orgA],
      ['/account/forget-password', 10015, 'erin', ts.orgA],
      ['/account/forget-password', 0, 'erin', ts.orgA],
    ]);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(NEW);
  });
});
