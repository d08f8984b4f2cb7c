/**
 * Report mail through nodemailer: SMTP when SMTP_URL is set, otherwise a file outbox — each
 * message written whole (RFC 822, attachments included) to <dataDir>/outbox/<time>-<id>.eml,
 * so a fresh install shows what it would have sent.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { MailService } from '@rti/server/plugin-api';

export type { OutgoingMail, SentMail } from '@rti/server/plugin-api';

/** the platform's mail service (plugin-api MailService), closable by its owner */
export interface Mailer extends MailService {
  close(): void;
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\..*/, '') + String(d.getUTCMilliseconds()).padStart(3, '0');

export function createMailer(opts: { smtpUrl: string; from: string; outboxDir: string }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: 'smtp',
      async send(mail) {
        const info = await transport.sendMail({ from: opts.from, ...mail });
        return { messageId: info.messageId, file: null };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, ...mail });
      const id = info.messageId
        .replace(/^<|>$/g, '')
        .replace(/@.*$/, '')
        .replace(/[^A-Za-z0-9_-]/g, '');
      await mkdir(opts.outboxDir, { recursive: true });
      const file = join(opts.outboxDir, `${stamp(new Date())}-${id}.eml`);
      // written aside and renamed: a reader of the outbox never sees a half-written .eml
      await writeFile(`${file}.part`, info.message as Buffer);
      await rename(`${file}.part`, file);
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
