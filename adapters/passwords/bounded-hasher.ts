import type { PasswordHasher } from '../../ports/password-hasher.js';

/**
 * At most `limit` hashes or verifications of `inner` at once; the rest wait in arrival order. argon2 runs on
 * libuv's threadpool (4 threads): unbounded, a burst of sign-ins takes every core and the event loop serving
 * everything else waits for CPU. Every call queues alike (verifyNothing included), so the wait never tells a
 * known address from an unknown one.
 */
export function boundedHasher(inner: PasswordHasher, limit: number): PasswordHasher {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`hash concurrency must be a whole number ≥ 1, not ${limit}`);
  let running = 0;
  const waiting: (() => void)[] = [];
  const bounded = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so `running` never dips and a newcomer cannot jump the queue.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
  return {
    hash: (password) => bounded(() => inner.hash(password)),
    verify: (phc, password) => bounded(() => inner.verify(phc, password)),
    needsRehash: (phc) => inner.needsRehash(phc),
    verifyNothing: (password) => bounded(() => inner.verifyNothing(password)),
  };
}
