import type { Account } from '../accounts/types.js';
import type { PantryObservation } from '../pantry/types.js';
import type { HouseholdId } from '../kernel/ids.js';
import { ok, type Result } from '../kernel/result.js';
import { countsToBuy, refresh, toBuy, type ListAnswer, type ShoppingDeps } from './lists.js';
import { contentOf } from './derive.js';
import type { ClosingTick, ShoppingLine, ShoppingList, ShoppingListContent } from './types.js';

/**
 * Closes an open trip (pure). With markAllBought every line still `Buy` is bought whole by the closing (its
 * earlier state kept in the record). Every line with a purchase on it becomes one `Purchased` observation of the
 * amount bought (in purchasedUnit when the purchase was said in a unit that did not convert).
 */
export function closeTrip(
  list: ShoppingList,
  markAllBought: boolean,
  at: Date,
  newId: () => string,
): { content: ShoppingListContent; observations: PantryObservation[] } {
  const closingTicks: ClosingTick[] = [];
  const lines: ShoppingLine[] = list.lines.map((l) => {
    if (!markAllBought || l.status !== 'Buy') return l;
    closingTicks.push({ lineId: l.id, status: l.status, purchasedQuantity: l.purchasedQuantity, purchasedUnit: l.purchasedUnit });
    return { ...l, status: 'Purchased', purchasedQuantity: toBuy(l), purchasedUnit: null };
  });
  const observations: PantryObservation[] = lines
    .filter((l) => l.purchasedQuantity > 0)
    .map((l) => ({
      id: newId(),
      householdId: list.householdId,
      foodKey: l.foodKey,
      displayName: l.displayName,
      observationType: 'Purchased',
      quantity: l.purchasedQuantity,
      unit: l.purchasedUnit ?? l.unit,
      storageLocation: null,
      confidence: null,
      bestBefore: null,
      observedAt: at,
    }));
  const summary = {
    linesBought: lines.filter((l) => l.status === 'Purchased').length,
    // Lines only optional ingredients wanted are not left undone.
    linesLeft: lines.filter(countsToBuy).length,
    observationsWritten: observations.length,
  };
  return {
    content: { ...contentOf(list), completedAt: at, trip: { summary, observationIds: observations.map((o) => o.id), closingTicks }, lines },
    observations,
  };
}

/**
 * Opens a closed trip again (pure): the lines the closing ticked get their earlier state back (ticks the household
 * made stay); answers the pantry observations the closing wrote, for the caller to remove. Null: the trip is open.
 */
export function reopenTrip(list: ShoppingList): { content: ShoppingListContent; observationIds: readonly string[] } | null {
  if (list.completedAt === null) return null;
  const before = new Map((list.trip?.closingTicks ?? []).map((t) => [t.lineId, t]));
  const lines = list.lines.map((l) => {
    const t = before.get(l.id);
    return t ? { ...l, status: t.status, purchasedQuantity: t.purchasedQuantity, purchasedUnit: t.purchasedUnit } : l;
  });
  return {
    content: { ...contentOf(list), completedAt: null, trip: null, lines },
    observationIds: list.trip?.observationIds ?? [],
  };
}

type TripDenied = Extract<Awaited<ReturnType<typeof refresh>>, { ok: false }>['error'];

/**
 * POST shopping-list/complete (any member), idempotent. The first call closes the trip in one list change that
 * also writes the closing's observations to the pantry (their ids recorded on the list) and queues one
 * `receipt-reminder` push to the caller: all of it or none. Later calls write nothing and answer the closed list.
 */
export async function completeShoppingTrip(
  deps: ShoppingDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  input: { markAllBought: boolean },
): Promise<Result<ListAnswer, TripDenied>> {
  const listed = await refresh(deps, caller, householdId, planId, false);
  if (!listed.ok) return listed;
  const now = deps.clock.now();
  const { list } = await deps.shoppingLists.change(householdId, planId, { listId: deps.ids.newId() }, (current) => {
    if (!current || current.completedAt !== null) return { write: null, result: null };
    const closed = closeTrip(current, input.markAllBought, now, () => deps.ids.newId());
    const reminder = { id: deps.ids.newId(), householdId, event: { kind: 'receipt-reminder', planId, listId: current.id, accountId: caller.id } as const, createdAt: now };
    return { write: closed.content, result: null, effects: { addObservations: closed.observations, pushes: [reminder] } };
  });
  return ok({ list: list ?? listed.value.list, settings: listed.value.settings, priceError: listed.value.priceError });
}

/**
 * POST shopping-list/reopen (any member), idempotent: the trip opens again in one list change that also removes
 * exactly the observations the closing wrote from the pantry. Reopening an open list changes nothing.
 */
export async function reopenShoppingTrip(deps: ShoppingDeps, caller: Account, householdId: HouseholdId, planId: string): Promise<Result<ListAnswer, TripDenied>> {
  const listed = await refresh(deps, caller, householdId, planId, false);
  if (!listed.ok) return listed;
  await deps.shoppingLists.change(householdId, planId, { listId: deps.ids.newId() }, (current) => {
    const opened = current ? reopenTrip(current) : null;
    return opened ? { write: opened.content, result: null, effects: { removeObservations: opened.observationIds } } : { write: null, result: null };
  });
  // Open again, the list follows the week and the pantry as a GET would (nothing is written when nothing moved).
  return refresh(deps, caller, householdId, planId, false);
}
