import type { HouseholdStore } from '../../ports/household-store.js';
import type { MailOutbox } from '../../ports/mail-outbox.js';
import type { MailingListStore } from '../../ports/mailing-list-store.js';
import { deleteAccount } from '../accounts/delete-account.js';
import type { AccountDeps } from '../accounts/deps.js';
import { isEmailAddress, normalizeEmail } from '../accounts/email.js';
import { throttleKey } from '../accounts/login.js';
import { acceptablePassword, passwordLength } from '../accounts/passwords.js';
import { DISPLAY_NAME_MAX, PASSWORD_MAX, type Account, type AccountLanguage } from '../accounts/types.js';
import type { HouseholdWithMembers, Member } from '../households/types.js';
import { fail, ok, type Result } from '../kernel/result.js';

/**
 * What an operator at the server may do without the API (the admin command, bootstrap/admin.ts): the same rules as
 * the API where the API has one (password rules, deleting an account), with the operator's word standing in for a
 * mail link where the person cannot be reached (confirming an address, setting a password).
 */
export type OperatorDeps = Pick<AccountDeps, 'accounts' | 'sessions' | 'loginThrottle' | 'hasher' | 'breached' | 'tokens' | 'ids' | 'clock'> & {
  households: HouseholdStore;
  waitlist: Pick<MailingListStore, 'removeOfAccount' | 'linkAccount'>;
  mailOutbox: Pick<MailOutbox, 'dropPendingTo'>;
};

/** Why the operator's command was refused: said to the operator in one line (bootstrap/admin.ts). */
export type OperatorRefusal =
  | { readonly type: 'no-such-user'; readonly email: string }
  | { readonly type: 'not-an-address'; readonly email: string }
  | { readonly type: 'address-taken'; readonly email: string }
  | { readonly type: 'name-length' }
  | { readonly type: 'password-too-short' }
  | { readonly type: 'password-too-long' }
  | { readonly type: 'password-breached' }
  | { readonly type: 'password-guessable'; readonly reason: 'service-name' | 'email' | 'name' | 'common-word' }
  | { readonly type: 'owner-required'; readonly email: string };

type Outcome<T> = Promise<Result<T, OperatorRefusal>>;

async function userOf(deps: OperatorDeps, email: string): Outcome<Account> {
  const account = isEmailAddress(email) ? await deps.accounts.byEmail(email.trim()) : null;
  return account ? ok(account) : fail(isEmailAddress(email) ? { type: 'no-such-user', email } : { type: 'not-an-address', email });
}

async function passwordRefusal(deps: OperatorDeps, password: string, person: { email: string; displayName?: string }): Promise<OperatorRefusal | null> {
  if (passwordLength(password) > PASSWORD_MAX) return { type: 'password-too-long' };
  const acceptable = await acceptablePassword(deps, password, person);
  if (acceptable.ok) return null;
  const refused = acceptable.error;
  if (refused.type === 'password-guessable') return { type: 'password-guessable', reason: refused.reason };
  return refused.type === 'password-pwned' ? { type: 'password-breached' } : { type: 'password-too-short' };
}

/**
 * Creates an account with a password, as registration does but with no mail and no session; `confirmed` marks its
 * address confirmed at once (the operator vouches for it). The address's waitlist row becomes the account's.
 */
export async function operatorCreateUser(
  deps: OperatorDeps,
  input: { email: string; displayName: string; password: string; language?: AccountLanguage; confirmed?: boolean },
): Outcome<Account> {
  const email = input.email.trim();
  if (!isEmailAddress(email)) return fail({ type: 'not-an-address', email: input.email });
  const displayName = input.displayName.trim();
  if ([...displayName].length < 1 || [...displayName].length > DISPLAY_NAME_MAX) return fail({ type: 'name-length' });
  const refused = await passwordRefusal(deps, input.password, { email, displayName });
  if (refused) return fail(refused);
  const created = await deps.accounts.create({
    id: deps.ids.newId(),
    email,
    emailConfirmed: input.confirmed ?? false,
    displayName,
    language: input.language ?? 'nb',
    passwordHash: await deps.hasher.hash(input.password),
    securityStamp: deps.tokens.generate(),
    createdAt: deps.clock.now(),
  });
  if (created === 'email-taken') return fail({ type: 'address-taken', email });
  await deps.waitlist.linkAccount(normalizeEmail(email), created.id);
  return ok(created);
}

/** Marks the address confirmed; `already` when it was. */
export async function operatorConfirmEmail(deps: OperatorDeps, email: string): Outcome<{ account: Account; already: boolean }> {
  const user = await userOf(deps, email);
  if (!user.ok) return user;
  if (user.value.emailConfirmed) return ok({ account: user.value, already: true });
  await deps.accounts.markEmailConfirmed(user.value.id, deps.clock.now());
  return ok({ account: user.value, already: false });
}

/**
 * Sets a new password (argon2id, the same rules as the API) and rotates the security stamp, so every session of
 * the account fails its next check, on every process; the address's lock and wrong-password count go too.
 */
export async function operatorSetPassword(deps: OperatorDeps, email: string, password: string): Outcome<Account> {
  const user = await userOf(deps, email);
  if (!user.ok) return user;
  const refused = await passwordRefusal(deps, password, { email: user.value.email ?? email, displayName: user.value.displayName });
  if (refused) return fail(refused);
  await deps.accounts.setPassword(user.value.id, await deps.hasher.hash(password), deps.tokens.generate(), deps.clock.now());
  await deps.loginThrottle.clear(throttleKey(deps, user.value.email ?? email));
  return ok(user.value);
}

/**
 * Lifts the wrong-password lock of an address (and forgets its count); answers until when it was locked, null when
 * it was not. The lock is kept per address, known or not, so an address without an account can be unlocked too.
 */
export async function operatorUnlock(deps: OperatorDeps, email: string): Outcome<{ lockedUntil: Date | null }> {
  if (!isEmailAddress(email)) return fail({ type: 'not-an-address', email });
  const key = throttleKey(deps, email);
  const lockedUntil = await deps.loginThrottle.lockedUntil(key, deps.clock.now());
  await deps.loginThrottle.clear(key);
  return ok({ lockedUntil });
}

/** Deletes the account with the API's rules (DELETE /api/v1/me): refused while it is the only Owner of a household others use. */
export async function operatorDeleteUser(deps: OperatorDeps, email: string): Outcome<{ account: Account; householdsDeleted: number; householdsLeft: number }> {
  const user = await userOf(deps, email);
  if (!user.ok) return user;
  const memberships = await deps.households.membershipsOf(user.value.id);
  const households = (await Promise.all(memberships.map((m) => deps.households.byId(m.householdId)))).filter((h): h is HouseholdWithMembers => h !== null);
  const deleted = await deleteAccount(deps, user.value);
  if (!deleted.ok) return fail({ type: 'owner-required', email });
  const alone = households.filter((h) => !h.members.some((m) => m.accountId !== null && m.accountId !== user.value.id)).length;
  return ok({ account: user.value, householdsDeleted: alone, householdsLeft: households.length - alone });
}

/** A household with each member's login address (null for a named person without one, or a login since gone). */
export interface HouseholdListing {
  readonly household: HouseholdWithMembers;
  readonly members: readonly { readonly member: Member; readonly email: string | null }[];
}

/** Every household, oldest first, with its members' addresses: read a page at a time. */
export async function* operatorHouseholds(deps: OperatorDeps, pageSize = 100): AsyncGenerator<HouseholdListing> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page = await deps.households.page(after, pageSize);
    for (const household of page) {
      const accounts = await Promise.all(household.members.map((m) => (m.accountId === null ? null : deps.accounts.byId(m.accountId))));
      yield { household, members: household.members.map((member, i) => ({ member, email: accounts[i]?.email ?? null })) };
    }
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
