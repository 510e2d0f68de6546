import { randomUUID } from 'node:crypto';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { argon2Hasher } from '../../adapters/crypto/argon2-hasher.js';
import { memoryDeps } from '../../bootstrap/deps.js';
import { memoryMailer } from '../../adapters/mail/memory.js';
import type { Account } from '../../core/accounts/types.js';

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

/** An account with a confirmed address `<name>@example.com`, as the domain's use cases receive a signed-in caller. */
export const person = (name: string): Account => ({
  id: randomUUID(),
  email: `${name}@example.com`,
  emailConfirmed: true,
  displayName: name,
  language: 'nb',
  passwordHash: null,
  securityStamp: randomUUID(),
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  updatedAt: new Date('2026-01-01T00:00:00.000Z'),
});
