import type { Knex } from 'knex';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateClass, RateRule } from '../../config/config.js';
import type { Logger } from '../../ports/logger.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSec: number };

export interface RateLimiter {
  /** Counts one request of `key` against `cls`. */
  consume(cls: RateClass, key: string): Promise<RateDecision>;
}

/**
 * Fixed-window counters per class. On Postgres the counters live in the `rate_limits` table, so every process
 * on one database shares them; should that table be unreachable, an in-process counter stands in (fail safe,
 * not fail open). On SQLite (one process) the counters are in memory.
 */
export function flexibleRateLimiter(
  rules: Readonly<Record<RateClass, RateRule>>,
  store: { kind: 'memory' } | { kind: 'postgres'; knex: Knex },
  logger: Logger,
): RateLimiter {
  const limiters = new Map<RateClass, RateLimiterAbstract>();
  for (const [cls, rule] of Object.entries(rules) as [RateClass, RateRule][]) {
    const base = { points: rule.points, duration: rule.durationSec, keyPrefix: cls };
    limiters.set(
      cls,
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
          }),
    );
  }
  return {
    async consume(cls, key) {
      const limiter = limiters.get(cls)!;
      try {
        await limiter.consume(key, 1);
        return { allowed: true };
      } catch (res) {
        if (res instanceof RateLimiterRes) return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
        logger.error('rate limiter failed; letting the request through', { err: res });
        return { allowed: true };
      }
    },
  };
}
