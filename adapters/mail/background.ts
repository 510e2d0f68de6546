import type { Logger } from '../../ports/logger.js';
import type { Mailer } from '../../ports/mailer.js';
import { observeMailFailed } from '../observability/prometheus.js';

/**
 * Hands mails to `inner` without making the request wait: the answer and its timing never depend on a mail
 * server (nor on whether a mail was sent at all). A failed delivery is retried a few times, then logged.
 * `drain()` waits for the mails under way (tests), `drain(ms)` at most that long (graceful shutdown).
 */
export function backgroundMailer(inner: Mailer, logger: Logger, retryDelaysMs: readonly number[] = [1000, 5000, 30000]): Mailer & { drain(timeoutMs?: number): Promise<void>; pending(): number } {
  const pending = new Set<Promise<void>>();
  const deliver = async (mail: Parameters<Mailer['send']>[0]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await inner.send(mail);
        return;
      } catch (err) {
        const delay = retryDelaysMs[attempt];
        if (delay === undefined) {
          logger.error('mail not delivered', { to: mail.to, subject: mail.subject, err });
          observeMailFailed();
          return;
        }
        await new Promise((r) => setTimeout(r, delay).unref());
      }
    }
  };
  return {
    async send(mail) {
      const p = deliver(mail).finally(() => pending.delete(p));
      pending.add(p);
    },
    pending: () => pending.size,
    async drain(timeoutMs = Infinity) {
      const deadline = Date.now() + timeoutMs;
      while (pending.size > 0) {
        const left = deadline - Date.now();
        if (left <= 0) {
          logger.error('mails not delivered before shutdown', { count: pending.size });
          return;
        }
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all([...pending]), new Promise((r) => (timer = setTimeout(r, Math.min(left, 2 ** 31 - 1))))]);
        clearTimeout(timer);
      }
    },
  };
}
