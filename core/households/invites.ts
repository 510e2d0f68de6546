import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { Invite, InviteStore } from '../../ports/invite-store.js';
import type { ReadableCodes } from '../../ports/readable-codes.js';
import type { Account } from '../accounts/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { requireAdult } from './access.js';
import type { Member, Membership } from './types.js';

export interface InviteDeps {
  households: HouseholdStore;
  invites: InviteStore;
  codes: ReadableCodes;
  ids: IdGenerator;
  clock: Clock;
}

/** 12 characters of Crockford base32: 60 bits, unguessable within the rate limits, easy to read aloud. */
export const INVITE_CODE_LENGTH = 12;
export const INVITE_DEFAULT_DAYS = 7;
const DAY_MS = 86_400_000;

type Denied = ErrorOf<'household-not-found' | 'adults-only'>;

export async function createInvite(
  deps: InviteDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { role: 'Adult' | 'Junior'; memberId?: string | undefined; expiresInDays?: number | undefined },
): Promise<Result<Invite, Denied | ErrorOf<'member-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  if (input.memberId !== undefined) {
    // A code for a named person: one who is in this household and has no account yet.
    const person = await deps.households.memberById(householdId, input.memberId);
    if (!person || person.accountId !== null) return fail({ type: 'member-not-found' });
  }
  const now = deps.clock.now();
  const invite = {
    code: deps.codes.newCode(INVITE_CODE_LENGTH),
    householdId,
    role: input.role,
    memberId: input.memberId ?? null,
    createdBy: caller.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + (input.expiresInDays ?? INVITE_DEFAULT_DAYS) * DAY_MS),
  };
  await deps.invites.create(invite);
  return ok({ ...invite, usedAt: null, usedBy: null });
}

export async function listInvites(deps: InviteDeps, caller: Account, householdId: HouseholdId): Promise<Result<Invite[], Denied>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  return ok(await deps.invites.listOpen(householdId, deps.clock.now()));
}

export async function deleteInvite(deps: InviteDeps, caller: Account, householdId: HouseholdId, code: string): Promise<Result<void, Denied | ErrorOf<'invite-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  return (await deps.invites.delete(householdId, code)) ? ok(undefined) : fail({ type: 'invite-not-found' });
}

const membershipOf = (householdName: string, m: Member): Membership => ({ householdId: m.householdId, householdName, role: m.role, memberId: m.id });

/**
 * Joins the household of a code. Retry-safe: a caller already in the household gets its membership and the code
 * stays unused. A code for a named person links the caller to that person, unless the person was claimed or
 * removed meanwhile: then the caller joins as a person of their own. Everyone in the household gets a push.
 */
export async function acceptInvite(deps: InviteDeps, caller: Account, input: { code: string }): Promise<Result<Membership, ErrorOf<'invite-not-usable'>>> {
  const invite = await deps.invites.byCode(input.code);
  if (!invite) return fail({ type: 'invite-not-usable' });
  const household = await deps.households.byId(invite.householdId);
  if (!household) return fail({ type: 'invite-not-usable' });
  const already = await deps.households.memberByAccount(invite.householdId, caller.id);
  if (already) return ok(membershipOf(household.name, already));

  const now = deps.clock.now();
  if (invite.usedAt !== null || invite.expiresAt.getTime() <= now.getTime()) return fail({ type: 'invite-not-usable' });
  // The code's use, the join and the joined push land in one transaction.
  const joined = await deps.invites.accept({
    code: invite.code,
    accountId: caller.id,
    at: now,
    newMember: { id: deps.ids.newId(), displayName: caller.displayName, role: invite.role, accountId: caller.id, createdAt: now },
    joined: (member) => ({
      id: deps.ids.newId(),
      householdId: invite.householdId,
      event: { kind: 'member-joined', memberId: member.id, displayName: member.displayName, actorAccountId: caller.id },
      createdAt: now,
    }),
  });
  if (typeof joined !== 'string') return ok(membershipOf(household.name, joined));
  // Another use won the code (perhaps this caller's own retry), or the caller joined meanwhile: answer as that one did.
  const member = await deps.households.memberByAccount(invite.householdId, caller.id);
  return member ? ok(membershipOf(household.name, member)) : fail({ type: 'invite-not-usable' });
}
