/** What a rate limiter answers for one request. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSec: number };
