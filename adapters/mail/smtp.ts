import type { Mailer } from '../../ports/mailer.js';
import { atFirstUse } from '../first-use.js';
import { messageOf } from './message-id.js';

/**
 * Bounds on one send, so that a mail server that stops answering holds a delivery (and a stop) for seconds, not
 * nodemailer's minutes: together well under the outbox's claim (core/mail/delivery.ts MAIL_LEASE_MS).
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Delivery through an SMTP server (SMTP_URL), e.g. smtp://user:pass@host:587; nodemailer is loaded at the first mail. */
export function smtpMailer(smtpUrl: string, from: string): Mailer & { close(): void } {
  const transport = atFirstUse(async () => (await import('nodemailer')).default.createTransport({ url: smtpUrl, ...TIMEOUTS }));
  return {
    async send(mail) {
      try {
        await (await transport()).sendMail(messageOf(mail, from));
      } catch (err) {
        // 55x: this mailbox or this mail is refused for good. A 4xx, a 530/535 (the login: settings an operator
        // fixes) or no answer at all is worth another try.
        const code = (err as { responseCode?: unknown }).responseCode;
        if (typeof code === 'number' && code >= 550 && code < 560 && err instanceof Error) Object.assign(err, { permanent: true });
        throw err;
      }
    },
    close: () => transport.made()?.close(),
  };
}
