import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { InviteStore } from '../../ports/invite-store.js';
import type { Clock } from '../../ports/clock.js';
import type { Account } from '../accounts/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId, MemberId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { requireAdult } from './access.js';
import type { AgeGroup, HouseholdRole, Member } from './types.js';

export interface MemberDeps {
  households: HouseholdStore;
  invites: InviteStore;
  ids: IdGenerator;
  clock: Clock;
}

type Denied = ErrorOf<'household-not-found' | 'adults-only'>;

/**
 * A named person without an account (a small child who never signs in, a partner who has not signed up yet),
 * counted in the portions by age group (Adult unless said).
 */
export async function addNamedMember(
  deps: MemberDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { displayName: string; role: 'Adult' | 'Junior'; ageGroup?: AgeGroup | undefined },
): Promise<Result<Member, Denied>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const person = { id: deps.ids.newId(), displayName: input.displayName.trim(), role: input.role, ageGroup: input.ageGroup ?? 'Adult', accountId: null, createdAt: deps.clock.now() } as const;
  return ok(await deps.households.addMember(householdId, person));
}

async function owners(deps: MemberDeps, householdId: HouseholdId): Promise<number> {
  const household = await deps.households.byId(householdId);
  return household ? household.members.filter((m) => m.role === 'Owner').length : 0;
}

/**
 * Renames a member, or changes a role or an age group. Only an Owner grants, changes or takes away the Owner role, and the last
 * Owner cannot be demoted.
 */
export async function updateMember(
  deps: MemberDeps,
  caller: Account,
  householdId: HouseholdId,
  memberId: MemberId,
  changes: { displayName?: string | undefined; role?: HouseholdRole | undefined; ageGroup?: AgeGroup | undefined },
): Promise<Result<Member, Denied | ErrorOf<'member-not-found' | 'owner-only' | 'owner-required'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const target = await deps.households.memberById(householdId, memberId);
  if (!target) return fail({ type: 'member-not-found' });
  const role = changes.role;
  if (role !== undefined && role !== target.role) {
    if ((role === 'Owner' || target.role === 'Owner') && adult.value.role !== 'Owner') return fail({ type: 'owner-only' });
    if (target.role === 'Owner' && (await owners(deps, householdId)) <= 1) return fail({ type: 'owner-required' });
  }
  const updated = await deps.households.updateMember(householdId, memberId, {
    ...(changes.displayName !== undefined ? { displayName: changes.displayName.trim() } : {}),
    ...(role !== undefined ? { role } : {}),
    ...(changes.ageGroup !== undefined ? { ageGroup: changes.ageGroup } : {}),
  });
  return updated ? ok(updated) : fail({ type: 'member-not-found' });
}

/**
 * Removes a member (a named person, or an account, who then loses the household). Only an Owner removes an
 * Owner, and never the last one. The person's pending named invites become open invites.
 */
export async function removeMember(
  deps: MemberDeps,
  caller: Account,
  householdId: HouseholdId,
  memberId: MemberId,
): Promise<Result<void, Denied | ErrorOf<'member-not-found' | 'owner-only' | 'owner-required'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const target = await deps.households.memberById(householdId, memberId);
  if (!target) return fail({ type: 'member-not-found' });
  if (target.role === 'Owner') {
    if (adult.value.role !== 'Owner') return fail({ type: 'owner-only' });
    if ((await owners(deps, householdId)) <= 1) return fail({ type: 'owner-required' });
  }
  await deps.invites.unlinkMember(householdId, memberId);
  return (await deps.households.removeMember(householdId, memberId)) ? ok(undefined) : fail({ type: 'member-not-found' });
}
