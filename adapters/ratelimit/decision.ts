import type { RateLimiterRes } from 'rate-limiter-flexible';

/** What a rate limiter answers for one request. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSec: number };

/** The answer for an admitted request: one object for all of them. */
export const ALLOWED: RateDecision = Object.freeze({ allowed: true });

/** The answer for a request the counter refused: retry once its window ends, in whole seconds (at least one). */
export const refused = (res: RateLimiterRes): RateDecision => ({ allowed: false, retryAfterSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) });
