import type { HouseholdStore } from '../../ports/household-store.js';
import type { LoyaltyPrograms } from '../../ports/loyalty-programs.js';
import type { Account } from '../accounts/types.js';
import { requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { LoyaltyProgram } from './types.js';

export interface LoyaltyDeps {
  households: HouseholdStore;
  loyaltyPrograms: LoyaltyPrograms;
}

/** The loyalty programmes of the household's country, for any member. */
export async function loyaltyProgramsOf(
  deps: LoyaltyDeps,
  caller: Account,
  householdId: HouseholdId,
): Promise<Result<readonly LoyaltyProgram[], ErrorOf<'household-not-found' | 'loyalty-programs-unavailable'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const household = await deps.households.byId(householdId);
  if (!household) return fail({ type: 'household-not-found' });
  const programs = deps.loyaltyPrograms.inCountry(household.country);
  return programs ? ok(programs) : fail({ type: 'loyalty-programs-unavailable', country: household.country });
}
