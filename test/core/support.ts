import { randomUUID } from 'node:crypto';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { argon2Hasher } from '../../adapters/crypto/argon2-hasher.js';
import { memoryDeps } from '../../bootstrap/deps.js';
import { memoryMailer } from '../../adapters/mail/memory.js';
import { register } from '../../core/accounts/register.js';
import { createHousehold } from '../../core/households/households.js';
import { acceptInvite, createInvite } from '../../core/households/invites.js';
import type { Account } from '../../core/accounts/types.js';
import type { Plan } from '../../core/households/types.js';
import type { HouseholdStore } from '../../ports/household-store.js';

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

/**
 * A household named Hansen in Oslo written straight into the store, made at `createdAt`, with `owner` as its Owner
 * (a member of the owner's name): for the tests of a use case that needs a household but not createHousehold.
 */
export async function storedHousehold(
  households: Pick<HouseholdStore, 'create'>,
  owner: Pick<Account, 'id' | 'displayName'>,
  createdAt: Date,
  o: { plan?: Plan; country?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await households.create(
    { id, name: 'Hansen', timeZoneId: 'Europe/Oslo', language: 'nb', country: o.country ?? 'NO', dinnerTime: '18:00', chains: [], plan: o.plan ?? 'Free', createdAt },
    { id: randomUUID(), displayName: owner.displayName, role: 'Owner', accountId: owner.id, createdAt },
  );
  return id;
}

type Deps = ReturnType<typeof domain>['deps'];

/**
 * An account made as the apps make one, through register (a password, an unconfirmed address): `who` is a name
 * (the address is `<name>@example.com`) or an address (the name is its local part).
 */
export async function account(deps: Deps, who: string): Promise<Account> {
  const email = who.includes('@') ? who : `${who}@example.com`;
  const r = await register(deps, { email, password: 'long enough', displayName: who.includes('@') ? who.split('@')[0]! : who });
  if (!r.ok || r.value.kind !== 'created') throw new Error('register failed');
  return (await deps.accounts.byId(r.value.issued.session.accountId))!;
}

/**
 * A household named Hansen made through createHousehold by a registered `owner`, and `join`, which registers someone
 * and has them join it through an invite of the owner's, as the apps do.
 */
export async function ownersHousehold(deps: Deps, timeZoneId: string) {
  const owner = await account(deps, 'owner');
  const h = value(await createHousehold(deps, owner, { name: 'Hansen', timeZoneId }));
  const join = async (name: string, role: 'Adult' | 'Junior') => {
    const who = await account(deps, name);
    const invite = value(await createInvite(deps, owner, h.id, { role }));
    const m = value(await acceptInvite(deps, who, { code: invite.code }));
    return { account: who, memberId: m.memberId };
  };
  return { owner, h, join };
}

/** The value of a use case's result; a failure fails the test, naming its error. */
export const value = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
};

/** The type of a use case's failure, or 'ok'. */
export const error = (r: { ok: boolean; error?: unknown }): string => (r.ok ? 'ok' : (r.error as { type: string }).type);

/** The domain at `now`, with a household of a new Owner made through createHousehold (Oslo time). */
export async function householdAt(now: string) {
  const { deps, clock } = domain();
  clock.set(new Date(now));
  const owner = person('eier');
  await deps.accounts.create(owner);
  const h = value(await createHousehold(deps, owner, { name: 'Hjem', timeZoneId: 'Europe/Oslo' }));
  return { deps, clock, owner, h };
}
