import type { IdentityStore, LinkedIdentity } from '../../ports/identity-store.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { Account } from './types.js';

/** How the account signs in: a password or not, and the providers linked to it (oldest first). */
export interface SignIns {
  readonly hasPassword: boolean;
  readonly identities: readonly LinkedIdentity[];
}

export async function signInsOf(deps: { identities: IdentityStore }, caller: Account): Promise<SignIns> {
  return { hasPassword: caller.passwordHash !== null, identities: await deps.identities.identitiesOf(caller.id) };
}

/**
 * Unlinks a provider from the caller's account. The account must keep a way in: without a password, its last
 * linked provider stays ('last-sign-in'). A link the account does not have is 'sign-in-not-found'.
 */
export async function unlinkSignIn(
  deps: { identities: IdentityStore },
  caller: Account,
  link: { readonly issuer: string; readonly subject: string },
): Promise<Result<void, ErrorOf<'sign-in-not-found' | 'last-sign-in'>>> {
  const outcome = await deps.identities.unlink(caller.id, link.issuer, link.subject, caller.passwordHash === null);
  if (outcome === 'none') return fail({ type: 'sign-in-not-found' });
  if (outcome === 'last') return fail({ type: 'last-sign-in' });
  return ok(undefined);
}
