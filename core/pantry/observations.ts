import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { mergeTargets, pantryRowsOf } from './model.js';
import type { PantryDeps } from './rows.js';
import type { ObservationType, PantryRow, StorageLocation } from './types.js';

export const OBSERVATION_LIMITS = { quantityMax: 100_000, unitMax: 32, displayNameMax: 200, foodKeyMax: 200 } as const;

/** What a client reports; null leaves the row's earlier value standing (docs/pantry-model.md). */
export interface ObservationInput {
  /** Free-form: normalized here. Null: the key comes from displayName. */
  readonly foodKey: string | null;
  readonly displayName: string | null;
  readonly observationType: ObservationType;
  readonly quantity: number | null;
  readonly unit: string | null;
  readonly storageLocation: StorageLocation | null;
  readonly confidence: number | null;
  /** YYYY-MM-DD, checked by the caller. */
  readonly bestBefore: IsoDate | null;
}

type NotMember = ErrorOf<'household-not-found'>;

/** POST observations (any member): appends to the log and answers the food's row after it (merges applied). */
export async function addObservation(
  deps: PantryDeps,
  caller: Account,
  householdId: HouseholdId,
  input: ObservationInput,
): Promise<Result<{ observationId: string; item: PantryRow }, NotMember | ErrorOf<'food-key-empty'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const foodKey = normalizeFoodKey(input.foodKey ?? input.displayName ?? '');
  if (foodKey === '') return fail({ type: 'food-key-empty' });
  const displayName = input.displayName?.trim() || null;
  const unit = input.unit?.trim() || null;
  const observationId = deps.ids.newId();
  // Only the observations that count toward this food's row: its own key and the keys merged into it.
  const merges = await deps.pantryMerges.activeMerges(householdId);
  const target = mergeTargets(merges);
  const rowKey = target(foodKey);
  const keys = [rowKey, ...merges.map((m) => m.fromKey).filter((k) => k !== rowKey && target(k) === rowKey)];
  const log = await deps.pantry.addToFoodLog(
    {
      id: observationId,
      householdId,
      foodKey,
      displayName,
      observationType: input.observationType,
      quantity: input.quantity,
      unit,
      storageLocation: input.storageLocation,
      confidence: input.confidence,
      bestBefore: input.bestBefore,
      observedAt: deps.clock.now(),
    },
    keys,
  );
  const rows = pantryRowsOf(log, merges, deps.clock.now());
  const item = rows.find((r) => r.foodKey === rowKey);
  if (!item) throw new Error(`observation ${observationId} did not reach its row ${rowKey}`);
  return ok({ observationId, item });
}

/** DELETE observations/{id} (any member): the row is derived, so it returns to exactly its state before. */
export async function removeObservation(
  deps: PantryDeps,
  caller: Account,
  householdId: HouseholdId,
  observationId: string,
): Promise<Result<void, NotMember | ErrorOf<'observation-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  return (await deps.pantry.remove(householdId, observationId)) ? ok(undefined) : fail({ type: 'observation-not-found' });
}

/**
 * DELETE observations (adults only). Without a location every observation goes. With one, every observation of
 * each food whose row is now (merges applied, archived rows included) in that place: the row's own key and the
 * keys merged into it.
 */
export async function removeObservations(
  deps: PantryDeps,
  caller: Account,
  householdId: HouseholdId,
  location: StorageLocation | null,
): Promise<Result<{ removedObservations: number }, NotMember | ErrorOf<'adults-only'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  if (location === null) return ok({ removedObservations: await deps.pantry.removeOfFoods(householdId, null) });
  const [observations, merges] = await Promise.all([deps.pantry.ofHousehold(householdId), deps.pantryMerges.activeMerges(householdId)]);
  const there = new Set(pantryRowsOf(observations, merges, deps.clock.now()).filter((r) => r.storageLocation === location).map((r) => r.foodKey));
  const target = mergeTargets(merges);
  const keys = [...new Set(observations.map((o) => o.foodKey))].filter((k) => there.has(target(k)));
  return ok({ removedObservations: keys.length === 0 ? 0 : await deps.pantry.removeOfFoods(householdId, keys) });
}
