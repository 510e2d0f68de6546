import type { Mailer } from '../../ports/mailer.js';
import { atFirstUse } from '../first-use.js';

/** Delivery through an SMTP server (SMTP_URL), e.g. smtp://user:pass@host:587; nodemailer is loaded at the first mail. */
export function smtpMailer(smtpUrl: string, from: string): Mailer & { close(): void } {
  const transport = atFirstUse(async () => (await import('nodemailer')).default.createTransport(smtpUrl));
  return {
    async send(mail) {
      await (await transport()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close: () => transport.made()?.close(),
  };
}
