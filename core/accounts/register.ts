import type { AccountStore, SessionStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { ErrorOf } from '../shared/errors.js';
import { fail, ok, type Result } from '../shared/result.js';
import { isEmailAddress } from './email.js';
import { startSession, type IssuedSession } from './sessions.js';
import { PASSWORD_MIN, type AccountLanguage } from './types.js';

export interface RegisterDeps {
  accounts: AccountStore;
  sessions: SessionStore;
  hasher: PasswordHasher;
  ids: IdGenerator;
  tokens: SecretTokens;
  clock: Clock;
}

export interface RegisterInput {
  email: string;
  password: string;
  displayName: string;
  language?: AccountLanguage | undefined;
}

/**
 * A fresh address gets an account and a session; a known address gets neither (and, once mail lands,
 * an already-have-an-account mail). Both paths hash the password, so the answer's timing is the same.
 */
export type RegisterOutcome = { kind: 'created'; issued: IssuedSession } | { kind: 'address-known' };

export async function register(
  deps: RegisterDeps,
  input: RegisterInput,
): Promise<Result<RegisterOutcome, ErrorOf<'signup-rejected'>>> {
  if (!isEmailAddress(input.email)) return fail({ type: 'signup-rejected', reason: 'email' });
  if ([...input.password].length < PASSWORD_MIN) return fail({ type: 'signup-rejected', reason: 'password' });

  const passwordHash = await deps.hasher.hash(input.password);
  const created = await deps.accounts.create({
    id: deps.ids.newId(),
    email: input.email.trim(),
    emailConfirmed: false,
    displayName: input.displayName.trim(),
    language: input.language ?? 'nb',
    passwordHash,
    securityStamp: deps.tokens.generate(),
    createdAt: deps.clock.now(),
  });
  if (created === 'email-taken') return ok({ kind: 'address-known' });
  return ok({ kind: 'created', issued: await startSession(deps, created) });
}
