import { AsyncResource } from 'node:async_hooks';
import { deliverDueMail, type MailDeliveryDeps, type MailDeliveryReport } from '../../core/mail/delivery.js';
import type { Logger } from '../../ports/logger.js';
import { observeMailFailed } from '../observability/prometheus.js';

export interface MailDeliveryLoop {
  /** A mail was written: deliver now (one pass at a time; a wake-up during a pass makes it go round once more). */
  wake(): void;
  /** Delivers until a pass finds nothing due (mails waiting for a retry are not due): tests, and work after answers. */
  drain(): Promise<void>;
  /**
   * Stops: no new pass, the pass under way gives back what it has not tried yet, and the mail being handed over
   * is waited for, `timeoutMs` at most (a server that does not answer: its claim lapses, another process or the
   * next start sends it).
   */
  stop(timeoutMs: number): Promise<void>;
}

export interface MailDeliveryLoopOptions {
  readonly logger: Logger;
  /** How often every process looks for due mails: retries, and mails other processes wrote or left behind. */
  readonly sweepMs: number;
  readonly batch?: number;
  readonly leaseMs?: number;
}

/**
 * Mail delivery in this process: a pass right after a mail is written (so a confirmation goes out within a moment
 * when the server is up), and a sweep every `sweepMs`. Runs in every process; the outbox's claims keep two from
 * sending one mail. Passes run outside the request that woke them (their own async context), so their queries are
 * never counted as the request's.
 */
export function mailDeliveryLoop(deps: MailDeliveryDeps, options: MailDeliveryLoopOptions): MailDeliveryLoop {
  const { logger } = options;
  const batch = options.batch ?? 50;
  let running: Promise<void> | null = null;
  let again = false;
  let stopping = false;
  const pass = async () => {
    for (;;) {
      again = false;
      const r = await deliverDueMail(deps, { batch, ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}), stopping: () => stopping });
      tell(logger, r);
      if (stopping || (r.claimed < batch && !again)) return;
    }
  };
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = pass()
      .catch((err: unknown) => logger.error('mail delivery pass failed', { err }))
      .finally(() => {
        running = null;
      });
    return running;
  };
  // Bound here, at start: a pass a request woke runs in the loop's context, not the request's.
  const runDetached = AsyncResource.bind(() => void run());
  const sweep = setInterval(runDetached, options.sweepMs);
  sweep.unref();
  return {
    wake() {
      if (!stopping) setImmediate(runDetached);
    },
    async drain() {
      while (running) await running;
      await run();
      while (running) await running;
    },
    async stop(timeoutMs) {
      stopping = true;
      clearInterval(sweep);
      if (!running) return;
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([running.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs)))]);
      clearTimeout(timer);
      if (late) logger.warn('mail being handed over at the stop did not finish', { waitedMs: timeoutMs });
    },
  };
}

function tell(logger: Logger, r: MailDeliveryReport): void {
  for (const f of r.failed) {
    logger.error('mail given up', f);
    observeMailFailed();
  }
  for (const t of r.retried) logger.warn('mail not accepted, retried later', { ...t, nextAttemptAt: t.nextAttemptAt.toISOString() });
  if (r.sent + r.expired + r.released + r.lost > 0) logger.info('mails delivered', { sent: r.sent, expired: r.expired, retried: r.retried.length, failed: r.failed.length, released: r.released, lost: r.lost });
}
