import type { Mail } from './mailer.js';
import type { OutboxClaim, SendProgress, Settlement } from './outbox-claims.js';

/**
 * The mail outbox: mails written to the database by the use cases that cause them, delivered by the delivery loop
 * (core/mail/delivery.ts) in any process, retried until they are a day old, and never sent past their link's
 * expiry.
 */
export interface QueuedMail extends Mail {
  readonly id: string;
  readonly expiresAt: Date | null;
  readonly createdAt: Date;
}

/**
 * A mail in the outbox: `failed` is given up (refused for good, or still failing a day on), `dropped` not sent (its
 * link expired). Once final, its text and html are emptied (they may carry single-use links that the database need
 * not keep); the address, subject and times stay until the mail is purged.
 */
export interface OutboxMail extends QueuedMail, SendProgress {}

export interface MailOutbox {
  /** Writes a mail, due at once. */
  enqueue(mail: QueuedMail): Promise<void>;
  /**
   * Claims up to `limit` pending mails due at `now` that no live claim holds, oldest due first. Of simultaneous
   * claims, also from other processes, each mail goes to one.
   */
  claimDue(claim: OutboxClaim): Promise<OutboxMail[]>;
  /** Extends this claim on one mail (right before its send); false when the claim no longer holds it. */
  renew(mailId: string, claimId: string, until: Date): Promise<boolean>;
  /** Records how an attempt ended and releases the claim; false, with nothing written, when the claim no longer holds it. */
  settle(mailId: string, claimId: string, settlement: Settlement): Promise<boolean>;
  /** Gives back the pending mails this claim holds, untried (a stop): due again at once for any process. Answers how many. */
  release(claimId: string): Promise<number>;
  /**
   * Drops every pending mail to `to` (any case), claimed or not, as not sent (`dropped`, `reason` its error, its
   * bodies emptied): its account is gone. Answers how many. A mail being handed over right then may still arrive.
   */
  dropPendingTo(to: string, at: Date, reason: string): Promise<number>;
  /** One mail, or null (support and tests). */
  byId(mailId: string): Promise<OutboxMail | null>;
  /** Forgets final mails finished before `before`; answers how many went. */
  purge(before: Date): Promise<number>;
}
