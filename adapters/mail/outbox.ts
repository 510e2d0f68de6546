import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../ports/logger.js';
import type { Mailer } from '../../ports/mailer.js';
import { atFirstUse } from '../first-use.js';
import { messageOf } from './message-id.js';

/**
 * The default without SMTP: each mail is written as an .eml file to the outbox folder and its text to the log,
 * so a home server's owner can follow the links without a mail server. Mails reach it through the mail outbox
 * in the database (core/mail/delivery.ts) as they reach an SMTP server. nodemailer is loaded at the first mail.
 */
export function outboxMailer(dir: string, from: string, logger: Logger): Mailer {
  const build = atFirstUse(async () => (await import('nodemailer')).default.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    async send(mail) {
      const info = await (await build()).sendMail(messageOf(mail, from));
      await mkdir(dir, { recursive: true });
      // A mail of the outbox is named by its id: written again (its delivery was cut before it was marked sent), it
      // replaces its own file rather than making a second.
      const name = mail.messageId ?? `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      const file = join(dir, `${name}.eml`);
      await writeFile(file, info.message as Buffer);
      logger.info('mail written to the outbox', { to: mail.to, subject: mail.subject, file, text: mail.text });
    },
  };
}
