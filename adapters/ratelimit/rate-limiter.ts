import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateClass, RateRule } from '../../config/config.js';
import type { Logger } from '../../ports/logger.js';
import { batchedShared, defaultSlack } from './batched-shared.js';
import { ALLOWED, refused, type RateDecision } from './decision.js';

export type { RateDecision };

export interface RateLimiter {
  /**
   * Counts one request of `key` against `cls`. Answers at once (no promise) when the request is admitted in the
   * process, far from the limit; a promise when the counter itself had to be asked.
   */
  consume(cls: RateClass, key: string): RateDecision | Promise<RateDecision>;
  /** Hands counts still held in the process to the shared store; call before the database closes. */
  close(): Promise<void>;
}

/**
 * Fixed-window counters per class, counted by rate-limiter-flexible. On Postgres the counters live in the
 * `rate_limits` table, so every process on one database shares them; should that table be unreachable, an
 * in-process counter stands in (fail safe, not fail open). The signed-in `backstop` is added to its shared row in
 * batches, so each process may admit up to `defaultSlack` requests more than the rule in a window; the classes that
 * guard sign-in and anonymous callers ask the shared row on every request. On SQLite (one process) the counters are
 * in memory, and every class is counted the batched way too: far from its limit a request is admitted without a
 * promise and added to the counter within 100 ms, near it the counter is asked on every request. With no other
 * process counting, that is exact: nothing more is admitted than the rule allows.
 */
export function flexibleRateLimiter(
  rules: Readonly<Record<RateClass, RateRule>>,
  store: { kind: 'memory' } | { kind: 'postgres'; knex: Knex },
  logger: Logger,
): RateLimiter {
  const limiters = new Map<RateClass, { consume(key: string): RateDecision | Promise<RateDecision>; close?(): Promise<void> }>();
  for (const [cls, rule] of Object.entries(rules) as [RateClass, RateRule][]) {
    const base = { points: rule.points, duration: rule.durationSec, keyPrefix: cls };
    const limiter: RateLimiterAbstract =
      store.kind === 'memory'
        ? new RateLimiterMemory(base)
        : new RateLimiterPostgres({
            ...base,
            storeClient: store.knex,
            storeType: 'knex',
            tableName: 'rate_limits',
            tableCreated: true,
            clearExpiredByTimeout: false,
            insuranceLimiter: new RateLimiterMemory(base),
          });
    limiters.set(
      cls,
      store.kind === 'memory' || cls === 'backstop'
        ? batchedShared(limiter, rule, { slack: defaultSlack(rule), flushMs: 100 })
        : {
            consume: (key) =>
              limiter.consume(key, 1).then(
                () => ALLOWED,
                (res: unknown) => {
                  if (res instanceof RateLimiterRes) return refused(res);
                  throw res;
                },
              ),
          },
    );
  }
  const failOpen = (err: unknown): RateDecision => {
    logger.error('rate limiter failed; letting the request through', { err });
    return ALLOWED;
  };
  return {
    async close() {
      await Promise.all([...limiters.values()].map((l) => l.close?.()));
    },
    consume(cls, key) {
      let decision: RateDecision | Promise<RateDecision>;
      try {
        decision = limiters.get(cls)!.consume(key);
      } catch (err) {
        return failOpen(err);
      }
      return decision instanceof Promise ? decision.catch(failOpen) : decision;
    },
  };
}
