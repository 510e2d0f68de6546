import type { Clock } from '../../ports/clock.js';
import type { ReadableCodes } from '../../ports/readable-codes.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { ReferralCodeStore } from '../../ports/referral-code-store.js';
import type { Account } from '../accounts/types.js';
import { requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { REFERRAL_CODE_LENGTH, type ReferralCode } from './types.js';

export interface ReferralDeps {
  households: HouseholdStore;
  referralCodes: ReferralCodeStore;
  codes: ReadableCodes;
  clock: Clock;
  /** How many unused codes a paying household holds at once (config REFERRAL_CODES_PER_HOUSEHOLD). */
  referralCodesPerHousehold: number;
}

/**
 * The household's referral codes, for any member. Codes are minted on read: every free slot below the
 * configured count gets a fresh code, so a paying household always holds that many unused ones besides the
 * spent ones. A household on the free plan has none to hand out and gets an empty list.
 */
export async function referralCodesOf(
  deps: ReferralDeps,
  caller: Account,
  householdId: HouseholdId,
): Promise<Result<ReferralCode[], ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const household = await deps.households.byId(householdId);
  if (!household) return fail({ type: 'household-not-found' });
  if (household.plan === 'Free') return ok([]);

  const held = await deps.referralCodes.listOf(householdId);
  const taken = new Set(held.map((c) => c.slot).filter((s) => s !== null));
  const free = Array.from({ length: deps.referralCodesPerHousehold }, (_, slot) => slot).filter((slot) => !taken.has(slot));
  if (free.length === 0) return ok(held);
  const now = deps.clock.now();
  // A concurrent read may fill some of these slots first; the store keeps its codes and drops ours, so the
  // list read afterwards is the same for both readers.
  await deps.referralCodes.addToFreeSlots(
    householdId,
    free.map((slot) => ({ code: deps.codes.newCode(REFERRAL_CODE_LENGTH), slot, createdAt: now })),
  );
  return ok(await deps.referralCodes.listOf(householdId));
}
