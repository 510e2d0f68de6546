import type { Account } from '../accounts/types.js';
import { normalizeUnit } from '../food/units.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { PantryMergeReader } from '../../ports/pantry-merge-store.js';
import type { UnitWeightStore } from '../../ports/unit-weight-store.js';
import type { UnitWeightDeps } from './merge-deps.js';
import { pantryRows } from './rows.js';
import { UNIT_WEIGHT_MAX_GRAMS } from './merge-types.js';
import type { UnitWeight } from './types.js';

type NotMember = ErrorOf<'household-not-found'>;
type AdultsOnly = ErrorOf<'household-not-found' | 'adults-only'>;

export const gramsInBounds = (grams: number): boolean => Number.isFinite(grams) && grams > 0 && grams <= UNIT_WEIGHT_MAX_GRAMS;

function keysOf(foodKey: string, unit: string): Result<{ foodKey: string; unit: string }, ErrorOf<'food-key-empty' | 'unit-empty'>> {
  const key = normalizeFoodKey(foodKey);
  const u = normalizeUnit(unit);
  if (key === '') return fail({ type: 'food-key-empty' });
  return u === '' ? fail({ type: 'unit-empty' }) : ok({ foodKey: key, unit: u });
}

/** GET unit-weights: the household's own grams per food and unit, by foodKey then unit; one food when named. */
export async function listUnitWeights(
  deps: UnitWeightDeps,
  caller: Account,
  householdId: HouseholdId,
  foodKey: string | null,
): Promise<Result<UnitWeight[], NotMember | ErrorOf<'food-key-empty'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  if (foodKey === null) return ok(await deps.unitWeights.list(householdId, null));
  const key = normalizeFoodKey(foodKey);
  if (key === '') return fail({ type: 'food-key-empty' });
  return ok(await deps.unitWeights.list(householdId, key));
}

/**
 * PUT unit-weights/{foodKey}/{unit}: one answer per food and unit, replaced on every put (retry-safe). The
 * display name is the pantry row's when the food has one, else the food as the caller wrote it. No shopping list
 * is rebuilt: the conversion reads the weight when it next runs.
 */
export async function setUnitWeight(
  deps: UnitWeightDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { foodKey: string; unit: string; grams: number },
): Promise<Result<UnitWeight, AdultsOnly | ErrorOf<'food-key-empty' | 'unit-empty' | 'unit-weight-out-of-bounds'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const keys = keysOf(input.foodKey, input.unit);
  if (!keys.ok) return keys;
  if (!gramsInBounds(input.grams)) return fail({ type: 'unit-weight-out-of-bounds' });
  const row = (await pantryRows(deps, householdId)).find((r) => r.foodKey === keys.value.foodKey);
  const stored = await deps.unitWeights.put({
    householdId,
    ...keys.value,
    displayName: row?.displayName ?? input.foodKey.trim(),
    grams: input.grams,
    updatedAt: deps.clock.now(),
  });
  return ok(stored);
}

/** DELETE unit-weights/{foodKey}/{unit}: conversion for that food and unit refuses again. */
export async function removeUnitWeight(
  deps: UnitWeightDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { foodKey: string; unit: string },
): Promise<Result<void, AdultsOnly | ErrorOf<'food-key-empty' | 'unit-empty' | 'unit-weight-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const keys = keysOf(input.foodKey, input.unit);
  if (!keys.ok) return keys;
  return (await deps.unitWeights.remove(householdId, keys.value.foodKey, keys.value.unit)) ? ok(undefined) : fail({ type: 'unit-weight-not-found' });
}

/**
 * Grams in one `unit` of `foodKey` for the shopping list's purchase conversion; null means the household gave
 * no weight, and the conversion refuses. The food's own weight wins; else, when the food is merged into
 * another, the surviving food's weight (a merge says they are one food).
 */
export async function gramsPerUnit(
  deps: { unitWeights: UnitWeightStore; pantryMerges: PantryMergeReader },
  householdId: HouseholdId,
  foodKey: string,
  unit: string,
): Promise<number | null> {
  const keys = keysOf(foodKey, unit);
  if (!keys.ok) return null;
  const own = await deps.unitWeights.get(householdId, keys.value.foodKey, keys.value.unit);
  if (own) return own.grams;
  const merge = (await deps.pantryMerges.activeMerges(householdId)).find((m) => m.fromKey === keys.value.foodKey);
  if (!merge) return null;
  return (await deps.unitWeights.get(householdId, merge.toKey, keys.value.unit))?.grams ?? null;
}
