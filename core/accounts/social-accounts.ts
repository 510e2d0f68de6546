import type { AccountStore } from '../../ports/account-store.js';
import type { Clock } from '../../ports/clock.js';
import type { ExternalIdentity } from '../../ports/identity-provider.js';
import type { IdentityStore } from '../../ports/identity-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { isEmailAddress, normalizeEmail } from './email.js';
import { DISPLAY_NAME_MAX, type Account, type AccountLanguage } from './types.js';

export interface IdentityAccountDeps {
  identities: IdentityStore;
  accounts: AccountStore;
  ids: IdGenerator;
  tokens: SecretTokens;
  clock: Clock;
}

export const FALLBACK_DISPLAY_NAME = 'Dinner user';

/** The first usable of the candidates (a name, then the address's local part), cut to the display-name limit. */
export function displayNameFrom(name: string | null, email: string | null): string {
  const candidates = [name, email === null ? null : email.slice(0, email.lastIndexOf('@'))];
  for (const c of candidates) {
    const trimmed = c?.replace(/\p{Cc}/gu, ' ').trim();
    if (trimmed) return [...trimmed].slice(0, DISPLAY_NAME_MAX).join('').trim();
  }
  return FALLBACK_DISPLAY_NAME;
}

/** A provider's address only when it is one (and fits the column); anything else counts as none. */
export const usableEmail = (email: string | null | undefined): string | null => {
  const e = email?.trim();
  return e && isEmailAddress(e) ? e : null;
};

/**
 * The account an identity signs in to: the one it is linked to; else the one holding the same address, when the
 * provider verified it (the identity is linked to it); else a new account without a password, linked.
 */
export async function accountForIdentity(
  deps: IdentityAccountDeps,
  identity: ExternalIdentity,
  displayName: string,
  language: AccountLanguage = 'nb',
): Promise<Result<Account, ErrorOf<'account-not-created'>>> {
  const linked = await deps.identities.find(identity.issuer, identity.subject);
  if (linked) {
    const account = await deps.accounts.byId(linked.accountId);
    if (account) return ok(account);
  }
  const email = usableEmail(identity.email);
  if (email !== null && identity.emailVerified) {
    const holder = await deps.accounts.byEmail(email);
    if (holder) return linkExisting(deps, identity, email, holder);
  }

  const fresh = (withEmail: string | null) =>
    deps.accounts.create({
      id: deps.ids.newId(),
      email: withEmail,
      emailConfirmed: withEmail !== null && identity.emailVerified,
      displayName,
      language,
      passwordHash: null,
      securityStamp: deps.tokens.generate(),
      createdAt: deps.clock.now(),
    });
  let created = await fresh(email);
  if (created === 'email-taken' && email !== null) {
    if (identity.emailVerified) {
      // Registered a moment ago, by another request: join it as if it had been there.
      const holder = await deps.accounts.byEmail(email);
      if (holder) return linkExisting(deps, identity, email, holder);
    }
    // An address the provider did not verify belongs to someone else here: the new account goes without it.
    created = await fresh(null);
  }
  if (created === 'email-taken') return fail({ type: 'account-not-created' });

  const linkedNow = await link(deps, identity, email, created.id);
  if (linkedNow) return ok(created);
  // A concurrent sign-in of the same identity created and linked its own account first: use that one.
  await deps.accounts.delete(created.id);
  return winnerOf(deps, identity);
}

async function linkExisting(deps: IdentityAccountDeps, identity: ExternalIdentity, email: string, holder: Account): Promise<Result<Account, ErrorOf<'account-not-created'>>> {
  if (!(await link(deps, identity, email, holder.id))) return winnerOf(deps, identity);
  if (holder.emailConfirmed || !holder.email || normalizeEmail(holder.email) !== normalizeEmail(email)) return ok(holder);
  // The provider proved the address that nobody had confirmed here. Whoever registered it unconfirmed may not
  // be its owner (pre-registration of someone else's address): the address counts as confirmed now, and the
  // password and the sessions of before go, since they may be a squatter's (the owner can set a password anew).
  const now = deps.clock.now();
  await deps.accounts.markEmailConfirmed(holder.id, now);
  await deps.accounts.setPassword(holder.id, null, deps.tokens.generate(), now);
  const updated = await deps.accounts.byId(holder.id);
  return updated ? ok(updated) : fail({ type: 'account-not-created' });
}

async function link(deps: IdentityAccountDeps, identity: ExternalIdentity, email: string | null, accountId: string): Promise<boolean> {
  const result = await deps.identities.link({
    issuer: identity.issuer,
    subject: identity.subject,
    accountId,
    email,
    createdAt: deps.clock.now(),
  });
  return result === 'linked';
}

async function winnerOf(deps: IdentityAccountDeps, identity: ExternalIdentity): Promise<Result<Account, ErrorOf<'account-not-created'>>> {
  const linked = await deps.identities.find(identity.issuer, identity.subject);
  const account = linked && (await deps.accounts.byId(linked.accountId));
  return account ? ok(account) : fail({ type: 'account-not-created' });
}
