import { fixedClock } from '../../adapters/clock/system-clock.js';
import { argon2Hasher } from '../../adapters/crypto/argon2-hasher.js';
import { memoryDeps } from '../../bootstrap/deps.js';
import { memoryMailer } from '../../adapters/mail/memory.js';

/** The in-memory composition root with a clock the test moves and a cheap (but real) argon2id. */
export function domain(adminEmails: string[] = []) {
  const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
  const mailer = memoryMailer();
  const deps = memoryDeps(
    { adminEmails, publicBaseUrl: 'https://dinner.example', lockout: { attempts: 3, windowSec: 900, lockSec: 300 }, referralCodesPerHousehold: 3 },
    { clock, mailer, hasher: argon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }) },
  );
  return { deps, clock, mailer };
}
