import type { SessionStore } from '../../ports/account-store.js';
import type { NativeIdentityTokens } from '../../ports/identity-provider.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { startSession, type IssuedSession } from './sessions.js';
import { accountForIdentity, displayNameFrom, usableEmail, type IdentityAccountDeps } from './social-accounts.js';
import type { Account, AccountLanguage } from './types.js';

export interface NativeSignInDeps extends IdentityAccountDeps {
  /** null when native sign-in is not configured. */
  nativeIdp: NativeIdentityTokens | null;
  sessions: SessionStore;
}

export interface NativeSignInInput {
  identityToken: string;
  /** The nonce the app generated; the token carries its SHA-256 (hex). */
  rawNonce?: string | null | undefined;
  /** What the platform told the app at the first sign-in only; used for a new account's name. */
  givenName?: string | null | undefined;
  familyName?: string | null | undefined;
  email?: string | null | undefined;
  /** The language of a new account's mails. */
  language?: AccountLanguage | undefined;
}

/**
 * Sign-in with an identity token the app got from the platform's provider: the account linked to its subject,
 * else the one with the same verified address, else a new one.
 */
export async function signInWithNativeToken(
  deps: NativeSignInDeps,
  input: NativeSignInInput,
): Promise<Result<{ account: Account; issued: IssuedSession }, ErrorOf<'idp-signin-unavailable' | 'idp-signin-rejected' | 'account-not-created'>>> {
  if (!deps.nativeIdp) return fail({ type: 'idp-signin-unavailable' });
  const vouched = await deps.nativeIdp.verify(input.identityToken, input.rawNonce ?? null);
  if (!vouched) return fail({ type: 'idp-signin-rejected' });

  // The token's address is the provider's word; one only the app sent is kept for a new account, unconfirmed.
  const tokenEmail = usableEmail(vouched.email);
  const identity = tokenEmail !== null ? { ...vouched, email: tokenEmail } : { ...vouched, email: usableEmail(input.email), emailVerified: false };
  const fullName = [input.givenName, input.familyName].map((s) => s?.trim() ?? '').filter((s) => s !== '').join(' ');
  const account = await accountForIdentity(deps, identity, displayNameFrom(fullName || vouched.name, identity.email), input.language);
  if (!account.ok) return account;
  const issued = await startSession(deps, account.value);
  // The account was deleted at this very moment: no account to sign in to.
  if (!issued) return fail({ type: 'account-not-created' });
  return ok({ account: account.value, issued });
}
