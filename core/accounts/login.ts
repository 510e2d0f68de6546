import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { AccountDeps } from './deps.js';
import { normalizeEmail } from './email.js';
import { startSession, type IssuedSession } from './sessions.js';
import type { Account } from './types.js';

export type LoginDeps = Pick<AccountDeps, 'accounts' | 'sessions' | 'loginThrottle' | 'hasher' | 'tokens' | 'clock' | 'lockout'>;

/** The throttle key of an address: its hash, the same whether or not an account has it. */
export const throttleKey = (deps: Pick<AccountDeps, 'tokens'>, email: string): string => deps.tokens.hash(`login:${normalizeEmail(email)}`);

/**
 * Signs in with e-mail and password. Never says which part was wrong. Wrong passwords are counted per address,
 * known or unknown alike, and a run of them locks the address for a while; every path spends one argon2
 * verification, so neither the answer nor its timing tells whether the address has an account.
 */
export async function login(
  deps: LoginDeps,
  input: { email: string; password: string },
): Promise<Result<{ account: Account; issued: IssuedSession }, ErrorOf<'invalid-credentials' | 'account-locked'>>> {
  const now = deps.clock.now();
  const key = throttleKey(deps, input.email);
  const [account, lockedUntil] = await Promise.all([deps.accounts.byEmail(input.email.trim()), deps.loginThrottle.lockedUntil(key, now)]);
  const valid = account?.passwordHash
    ? await deps.hasher.verify(account.passwordHash, input.password)
    : await deps.hasher.verifyNothing(input.password);
  if (lockedUntil) return fail({ type: 'account-locked' });
  if (!account || !valid) {
    await deps.loginThrottle.recordFailure(key, now, deps.lockout);
    return fail({ type: 'invalid-credentials' });
  }
  await deps.loginThrottle.clear(key);
  let signedIn = account;
  if (account.passwordHash && deps.hasher.needsRehash(account.passwordHash)) {
    // The parameters changed since this hash was made: store it anew under the current ones.
    const rehashed = await deps.hasher.hash(input.password);
    await deps.accounts.setPassword(account.id, rehashed, null, now);
    signedIn = { ...account, passwordHash: rehashed };
  }
  const issued = await startSession(deps, signedIn);
  // The account was deleted while it signed in: as for any address without an account.
  if (!issued) return fail({ type: 'invalid-credentials' });
  return ok({ account: signedIn, issued });
}
