/**
 * The file outbox of the platform mail service (scheduler plugin, DATA_DIR/outbox): the .eml
 * files written, decoded to recipient, subject and text, and a wait for the next one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

export function outboxFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'outbox'))
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
}

const qp = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** Decodes the text part of a nodemailer .eml (quoted-printable or base64) and its subject. */
export function readOutboxMail(dataDir: string, file: string): OutboxMail {
  const raw = readFileSync(join(dataDir, 'outbox', file), 'utf8');
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const header = (name: string) => head.match(new RegExp(`^${name}: (.*(?:\\n[ \\t].*)*)`, 'mi'))?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '';
  const words = (s: string) =>
    s.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : qp(data.replace(/_/g, ' ')),
    );
  const body = rest.join('\n\n');
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? qp(body) : body;
  return { to: header('To'), subject: words(header('Subject')), text };
}

/** Waits (up to 10 s) for the outbox to hold more than `before` mails; answers the newest. */
export async function nextOutboxMail(dataDir: string, before: number): Promise<OutboxMail> {
  const until = Date.now() + 10_000;
  while (outboxFiles(dataDir).length <= before) {
    if (Date.now() > until) throw new Error('no mail arrived in the outbox');
    await new Promise((r) => setTimeout(r, 50));
  }
  const files = outboxFiles(dataDir);
  return readOutboxMail(dataDir, files[files.length - 1]);
}
