import type { HouseholdStore } from '../../ports/household-store.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { AccountId, HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { isAdult, type Member } from './types.js';

/** Any member may read; a household the caller is not in answers as if it did not exist. */
export async function requireMember(
  deps: { households: HouseholdStore },
  householdId: HouseholdId,
  accountId: AccountId,
): Promise<Result<Member, ErrorOf<'household-not-found'>>> {
  const member = await deps.households.memberByAccount(householdId, accountId);
  return member ? ok(member) : fail({ type: 'household-not-found' });
}

/** Writes reserved for Owner and Adult; a Junior gets 'adults-only'. */
export async function requireAdult(
  deps: { households: HouseholdStore },
  householdId: HouseholdId,
  accountId: AccountId,
): Promise<Result<Member, ErrorOf<'household-not-found' | 'adults-only'>>> {
  const member = await requireMember(deps, householdId, accountId);
  if (!member.ok) return member;
  return isAdult(member.value.role) ? member : fail({ type: 'adults-only' });
}
