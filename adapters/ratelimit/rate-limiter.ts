import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateClass, RateRule } from '../../config/config.js';
import type { Logger } from '../../ports/logger.js';
import { batchedShared, defaultSlack } from './batched-shared.js';
import type { RateDecision } from './decision.js';

export type { RateDecision };

export interface RateLimiter {
  /** Counts one request of `key` against `cls`. */
  consume(cls: RateClass, key: string): Promise<RateDecision>;
  /** Hands counts still held in the process to the shared store; call before the database closes. */
  close(): Promise<void>;
}

/**
 * Fixed-window counters per class. On Postgres the counters live in the `rate_limits` table, so every process
 * on one database shares them; should that table be unreachable, an in-process counter stands in (fail safe,
 * not fail open). The signed-in `backstop` is added to its shared row in batches, so each process may admit up to
 * `defaultSlack` requests more than the rule in a window. On SQLite (one process) the counters are in memory.
 */
export function flexibleRateLimiter(
  rules: Readonly<Record<RateClass, RateRule>>,
  store: { kind: 'memory' } | { kind: 'postgres'; knex: Knex },
  logger: Logger,
): RateLimiter {
  const limiters = new Map<RateClass, { consume(key: string): Promise<RateDecision>; close?(): Promise<void> }>();
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
    // The signed-in backstop on Postgres is counted in batches (adapters/ratelimit/batched-shared.ts); the classes
    // that guard sign-in and anonymous callers ask the shared row on every request.
    limiters.set(
      cls,
      store.kind === 'postgres' && cls === 'backstop'
        ? batchedShared(limiter, rule, { slack: defaultSlack(rule), flushMs: 100 })
        : {
            async consume(key) {
              try {
                await limiter.consume(key, 1);
                return { allowed: true };
              } catch (res) {
                if (res instanceof RateLimiterRes) return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
                throw res;
              }
            },
          },
    );
  }
  return {
    async close() {
      await Promise.all([...limiters.values()].map((l) => l.close?.()));
    },
    async consume(cls, key) {
      try {
        return await limiters.get(cls)!.consume(key);
      } catch (err) {
        logger.error('rate limiter failed; letting the request through', { err });
        return { allowed: true };
      }
    },
  };
}
