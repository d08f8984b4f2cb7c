/**
 * The SMTP path (SMTP_URL set): the report mail reaches an SMTP server, from MAIL_FROM, to the
 * row's recipients; a server refusing the recipients fails the run with its answer.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';
import { ok } from './support';

interface Received {
  from: string;
  to: string[];
  data: string;
}

/** A minimal plain SMTP server (no TLS, no auth): enough for nodemailer to deliver one mail. */
function smtpServer(refuse: (rcpt: string) => boolean) {
  const mails: Received[] = [];
  const server = net.createServer((sock) => {
    let buf = '';
    let inData = false;
    let cur: Received = { from: '', to: [], data: '' };
    const say = (s: string) => sock.write(s + '\r\n');
    say('220 test ESMTP');
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          cur.data = buf.slice(0, end);
          buf = buf.slice(end + 5);
          inData = false;
          mails.push(cur);
          cur = { from: '', to: [], data: '' };
          say('250 queued');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        const addr = /<(.*)>/.exec(line)?.[1] ?? '';
        if (cmd === 'MAIL') cur.from = addr;
        if (cmd === 'RCPT' && !refuse(addr)) cur.to.push(addr);
        if (cmd === 'RSET') cur = { from: '', to: [], data: '' };
        if (cmd === 'DATA') inData = true;
        if (cmd === 'RCPT' && refuse(addr)) say('550 no such mailbox');
        else if (cmd === 'DATA') say('354 go ahead');
        else if (cmd === 'QUIT') {
          say('221 bye');
          sock.end();
        } else say('250 ok');
      }
    });
    sock.on('error', () => undefined);
  });
  return { server, mails };
}

let ts: TestServer;
let dir: string;
const smtp = smtpServer((rcpt) => rcpt.endsWith('@nowhere.test'));

beforeAll(async () => {
  await new Promise<void>((r) => smtp.server.listen(0, '127.0.0.1', () => r()));
  const { port } = smtp.server.address() as net.AddressInfo;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rti-scheduler-smtp-'));
  Object.assign(process.env, { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Reports <reports@example.com>', SCHEDULER_TIMEZONE: 'UTC' });
  ts = await startTestServer({ plugins: ['scheduler', 'master-data', 'shipping', 'inventory', 'reports'], config: { dataDir: dir } });
  await ok(ts.a, '/warehouse/create', { code: 'W1', name: 'Main', minInventory: 1 });
}, 60_000);

afterAll(async () => {
  await ts?.close();
  await new Promise((r) => smtp.server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

it('delivers the report mail over SMTP from MAIL_FROM', async () => {
  const id = (await ok(ts.a, '/task-config/create', { name: 3, type: 20, cron: '0 8 * * *', available: true, mailTo: 'stock@example.com', subject: 'Stock' }))
    .id;
  const run = await ok(ts.a, '/task-config/run', { id });
  expect(run).toMatchObject({ status: 'succeeded', outboxFile: null, recipients: ['stock@example.com'] });
  expect(run.messageId).toMatch(/^<.+>$/);
  expect(smtp.mails).toHaveLength(1);
  expect(smtp.mails[0]).toMatchObject({ from: 'reports@example.com', to: ['stock@example.com'] });
  expect(smtp.mails[0].data).toContain('Subject: Stock');
  expect(smtp.mails[0].data).toContain(run.messageId);
  expect(fs.existsSync(path.join(dir, 'outbox'))).toBe(false);
});

it('fails the run with the server answer when every recipient is refused', async () => {
  const id = (await ok(ts.a, '/task-config/create', { name: 3, type: 20, cron: '0 8 * * *', available: true, mailTo: 'ghost@nowhere.test' })).id;
  const run = await ok(ts.a, '/task-config/run', { id });
  expect(run.status).toBe('failed');
  expect(run.error).toMatch(/550|recipients/i);
  expect(smtp.mails).toHaveLength(1);
});
