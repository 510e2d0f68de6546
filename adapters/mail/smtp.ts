import nodemailer from 'nodemailer';
import type { Mailer } from '../../ports/mailer.js';

/** Delivery through an SMTP server (SMTP_URL), e.g. smtp://user:pass@host:587. */
export function smtpMailer(smtpUrl: string, from: string): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close: () => transport.close(),
  };
}
