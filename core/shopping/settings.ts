import type { HouseholdStore } from '../../ports/household-store.js';
import type { Clock } from '../../ports/clock.js';
import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { shoppingSettingsOf, type ShoppingSettings } from './types.js';

export interface ShoppingSettingsDeps {
  households: HouseholdStore;
  clock: Clock;
}

/** GET shopping-settings (any member). */
export async function getShoppingSettings(deps: ShoppingSettingsDeps, caller: Account, householdId: HouseholdId): Promise<Result<ShoppingSettings, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const household = await deps.households.byId(householdId);
  return household ? ok(shoppingSettingsOf(household)) : fail({ type: 'household-not-found' });
}

/**
 * PATCH shopping-settings (adults): a setting left out keeps its value. A change moves the household's revision
 * (it is a household write), so every list is derived again on its next read: priceCatalogueOn off drops the
 * suggested prices at once, and each list's answer echoes the settings it was read with.
 */
export async function updateShoppingSettings(
  deps: ShoppingSettingsDeps,
  caller: Account,
  householdId: HouseholdId,
  changes: Partial<ShoppingSettings>,
): Promise<Result<ShoppingSettings, ErrorOf<'household-not-found' | 'adults-only'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  // Nothing asked: nothing written (a write would move the household's revision for no change).
  if (changes.sharingOff === undefined && changes.priceCatalogueOn === undefined) return getShoppingSettings(deps, caller, householdId);
  // A setting left undefined is left as it is by the store, as every household change is.
  const updated = await deps.households.update(householdId, { sharingOff: changes.sharingOff, priceCatalogueOn: changes.priceCatalogueOn }, deps.clock.now());
  return updated ? ok(shoppingSettingsOf(updated)) : fail({ type: 'household-not-found' });
}
