import type { AccountStore, SessionStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { ErrorOf } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import { startSession, type IssuedSession } from './sessions.js';
import type { Account } from './types.js';

export interface LoginDeps {
  accounts: AccountStore;
  sessions: SessionStore;
  hasher: PasswordHasher;
  tokens: SecretTokens;
  clock: Clock;
}

/** Never says which part was wrong; an unknown address costs the same hashing time as a wrong password. */
export async function login(
  deps: LoginDeps,
  input: { email: string; password: string },
): Promise<Result<{ account: Account; issued: IssuedSession }, ErrorOf<'invalid-credentials'>>> {
  const account = await deps.accounts.byEmail(input.email.trim());
  const valid = account?.passwordHash
    ? await deps.hasher.verify(account.passwordHash, input.password)
    : await deps.hasher.verifyNothing(input.password);
  if (!account || !valid) return fail({ type: 'invalid-credentials' });
  return ok({ account, issued: await startSession(deps, account) });
}
