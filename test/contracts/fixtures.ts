import { randomUUID } from 'node:crypto';
import type { NewAccount } from '../../ports/account-store.js';
import type { Plan } from '../../core/households/types.js';
import type { StoreSet } from '../../bootstrap/stores.js';

/** Timestamps with milliseconds, as the stores must keep them. */
export const at = (iso: string) => new Date(iso);

export const newAccount = (over: Partial<NewAccount> = {}): NewAccount => ({
  id: randomUUID(),
  email: `someone.${randomUUID().slice(0, 8)}@example.com`,
  emailConfirmed: false,
  displayName: 'Kari Nordmann',
  language: 'nb',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
  securityStamp: randomUUID().replace(/-/g, ''),
  createdAt: at('2026-03-01T10:15:30.123Z'),
  ...over,
});

/** An account made by `newAccount(over)` and created in the store. */
export async function createdAccount(s: Pick<StoreSet, 'accounts'>, over: Partial<NewAccount> = {}): Promise<NewAccount> {
  const account = newAccount(over);
  await s.accounts.create(account);
  return account;
}

/**
 * A household with its Owner, a login of its own: what most suites need before they can write household data.
 * `at` is both the household's and the owner's creation time.
 */
export async function ownedHousehold(
  s: Pick<StoreSet, 'accounts' | 'households'>,
  o: { plan?: Plan; at?: Date } = {},
): Promise<{ id: string; owner: NewAccount; ownerMemberId: string }> {
  const owner = await createdAccount(s);
  const id = randomUUID();
  const ownerMemberId = randomUUID();
  const createdAt = o.at ?? at('2026-01-01T00:00:00.000Z');
  await s.households.create(
    { id, name: 'Hansen', timeZoneId: 'Europe/Oslo', language: 'nb', country: 'NO', dinnerTime: '18:00', chains: [], plan: o.plan ?? 'Free', createdAt },
    { id: ownerMemberId, displayName: 'Owner', role: 'Owner', accountId: owner.id, createdAt },
  );
  return { id, owner, ownerMemberId };
}
