import { fixedClock } from '../../adapters/clock/system-clock.js';
import { argon2Hasher } from '../../adapters/crypto/argon2-hasher.js';
import { memoryDeps } from '../../bootstrap/deps.js';

/** The in-memory composition root with a clock the test moves and a cheap (but real) argon2id. */
export function domain(adminEmails: string[] = []) {
  const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
  const deps = memoryDeps({ adminEmails }, { clock, hasher: argon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }) });
  return { deps, clock };
}
