import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { MailOutbox, OutboxMail } from '../../ports/mail-outbox.js';
import type { Settlement } from '../../ports/outbox-claims.js';
import type { Mailer } from '../../ports/mailer.js';

export interface MailDeliveryDeps {
  mailOutbox: MailOutbox;
  /** What hands a mail to the mail server (or writes it as a file): answers once it was accepted, else throws. */
  transport: Mailer;
  ids: IdGenerator;
  clock: Clock;
}

/** The wait before the n-th retry: 10 s × 2^(n-1), at most an hour (10 s, 20 s, 40 s, ... 85 min, then hourly). */
export const MAIL_RETRY_BASE_MS = 10_000;
export const MAIL_RETRY_MAX_MS = 3_600_000;
/** A mail still failing this long after it was written is given up (some 30 attempts, the last hourly). */
export const MAIL_GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** How long a claim on a mail holds; renewed right before each send, so longer than any one send (the SMTP adapter's timeouts). */
export const MAIL_LEASE_MS = 120_000;

export const mailRetryDelayMs = (attempts: number): number => Math.min(MAIL_RETRY_BASE_MS * 2 ** Math.max(attempts - 1, 0), MAIL_RETRY_MAX_MS);

export interface MailDeliveryReport {
  /** Mails this pass claimed. */
  claimed: number;
  sent: number;
  /** Not accepted this time: due again after their wait. */
  retried: { mailId: string; to: string; error: string; nextAttemptAt: Date }[];
  /** Given up: refused for good, or still failing a day after they were written. */
  failed: { mailId: string; to: string; subject: string; error: string }[];
  /** Not sent: their link had expired. */
  expired: number;
  /** Claimed and left untried because the delivery was stopping: given back at once. */
  released: number;
  /** Whose claim lapsed under this pass (another process has them): nothing recorded. */
  lost: number;
}

/**
 * One pass of mail delivery: claims up to `batch` due mails and hands them to the transport one after another,
 * each marked sent the moment the server accepted it. Safe in several processes at once: a mail is sent by the
 * claim holding it, renewed right before its send. A mail whose claim lapsed after the server accepted it (the
 * process died between the two) is sent again by another; its Message-ID (the mail's id) is the same, the most
 * SMTP offers against a double. `stopping` is asked before each mail: once it says yes, the rest of the claim is
 * given back untried, so a stop waits only for the mail being handed over.
 */
export async function deliverDueMail(deps: MailDeliveryDeps, options: { batch?: number; leaseMs?: number; stopping?: () => boolean } = {}): Promise<MailDeliveryReport> {
  const leaseMs = options.leaseMs ?? MAIL_LEASE_MS;
  const report: MailDeliveryReport = { claimed: 0, sent: 0, retried: [], failed: [], expired: 0, released: 0, lost: 0 };
  const claimId = deps.ids.newId();
  const start = deps.clock.now();
  const due = await deps.mailOutbox.claimDue({ claimId, now: start, until: new Date(start.getTime() + leaseMs), limit: options.batch ?? 50 });
  report.claimed = due.length;
  for (const mail of due) {
    if (options.stopping?.()) {
      report.released = await deps.mailOutbox.release(claimId);
      break;
    }
    const now = deps.clock.now();
    // The claim may have lapsed while earlier sends took their time: then another process has this one.
    if (!(await deps.mailOutbox.renew(mail.id, claimId, new Date(now.getTime() + leaseMs)))) {
      report.lost++;
      continue;
    }
    const settlement = await attempt(deps, mail, report);
    if (!(await deps.mailOutbox.settle(mail.id, claimId, settlement))) report.lost++;
  }
  return report;
}

async function attempt(deps: MailDeliveryDeps, mail: OutboxMail, report: MailDeliveryReport): Promise<Settlement> {
  const now = deps.clock.now();
  if (mail.expiresAt !== null && mail.expiresAt.getTime() <= now.getTime()) {
    report.expired++;
    return { state: 'dropped', attempts: mail.attempts, at: now, error: 'its link expired before it could be sent' };
  }
  const attempts = mail.attempts + 1;
  try {
    await deps.transport.send({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId: mail.id });
    report.sent++;
    return { state: 'sent', attempts, at: deps.clock.now() };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const permanent = typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true;
    const after = deps.clock.now();
    if (permanent || after.getTime() - mail.createdAt.getTime() >= MAIL_GIVE_UP_AFTER_MS) {
      const why = permanent ? `refused: ${error}` : `gave up after ${attempts} attempts: ${error}`;
      report.failed.push({ mailId: mail.id, to: mail.to, subject: mail.subject, error: why });
      return { state: 'failed', attempts, at: after, error: why };
    }
    const nextAttemptAt = new Date(after.getTime() + mailRetryDelayMs(attempts));
    report.retried.push({ mailId: mail.id, to: mail.to, error, nextAttemptAt });
    return { state: 'pending', attempts, nextAttemptAt, error };
  }
}
