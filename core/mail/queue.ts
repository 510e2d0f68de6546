import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { MailOutbox } from '../../ports/mail-outbox.js';
import type { Mail, Mailer } from '../../ports/mailer.js';

export interface MailQueueDeps {
  mailOutbox: MailOutbox;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * The mailer the use cases get in production: `send` writes the mail to the outbox and answers once it is there;
 * the delivery loop (delivery.ts) sends it. `queued` is told after each write (the loop's wake-up).
 *
 * Where the mail is written: each use case that mails does so right after the store call that caused it (the
 * account, the token, the list entry, the feedback report), as a write of its own, not in that call's transaction.
 * Every such cause is one store call that commits on its own, and none of them holds a transaction open in core.
 * A crash between the two loses that mail and leaves the state the user can ask for it again from (a resend of
 * the confirmation, another reset, the list's next mail); a mail is never written for a cause that did not commit.
 * The monthly dinner-price mail does not come through here: it has durable claims of its own
 * (core/publicdata/dinner-price-monthly-mail.ts) and sends once the mail server accepted it.
 */
export function queueingMailer(deps: MailQueueDeps, queued: () => void = () => {}): Mailer {
  return {
    async send(mail: Mail) {
      await deps.mailOutbox.enqueue({
        id: deps.ids.newId(),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        expiresAt: mail.expiresAt ?? null,
        createdAt: deps.clock.now(),
      });
      queued();
    },
  };
}
