/**
 * The platform's mail service: one way to send mail for every part of the server (account
 * codes, report mails). The core declares it; the scheduler plugin provides it (service id
 * `mail`: nodemailer to SMTP when SMTP_URL is set, else a file outbox under DATA_DIR/outbox),
 * so there is one transport, one sender address and one outbox. Without that plugin the
 * server sends no mail (and says so in its log).
 */
export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>;
}

export interface SentMail {
  messageId: string;
  /** the .eml file written (file outbox only) */
  file: string | null;
}

export interface MailService {
  /** 'file' = written to the outbox folder, not delivered */
  readonly kind: 'smtp' | 'file';
  send(mail: OutgoingMail): Promise<SentMail>;
}
