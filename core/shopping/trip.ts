import type { Account } from '../accounts/types.js';
import type { PantryObservation } from '../pantry/types.js';
import { addDays } from '../kernel/dates.js';
import { openWeekPlan } from '../plans/plans.js';
import type { HouseholdId } from '../kernel/ids.js';
import { ok, type Result } from '../kernel/result.js';
import { aisleOf } from '../pantry/model.js';
import { convert, tidy } from '../food/units.js';
import { boughtWhole, countsToBuy, refresh, shoppingStarted, type ListAnswer, type ShoppingDeps } from './lists.js';
import { joined, remainingOf } from './line-amounts.js';
import { contentOf } from './derive.js';
import type { CarriedLine, ClosingTick, ShoppingLine, ShoppingList, ShoppingListContent } from './types.js';
import type { ListEffects } from '../../ports/shopping-list-store.js';

/** What a closing does with the lines still to buy: buys them whole, keeps them for the next week's list, or drops them. */
export const UNTICKED_CHOICES = ['bought', 'keep', 'drop'] as const;
export type Unticked = (typeof UNTICKED_CHOICES)[number];

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
    return { ...l, status: 'Purchased', purchasedQuantity: boughtWhole(l), purchasedUnit: null };
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

/**
 * What a closing with unticked=keep carries into the next week's list (pure): every line still to buy (optional-only
 * lines left out), for what is left of it: its need less the pantry, less what was bought of it in its own unit (a
 * purchase said in a unit that does not convert takes nothing off).
 */
export function unboughtRest(list: Pick<ShoppingList, 'lines'>): CarriedLine[] {
  return list.lines.flatMap((l) => {
    const quantity = remainingOf(l);
    return countsToBuy(l) && quantity > 0 ? [{ foodKey: l.foodKey, displayName: l.displayName, quantity, unit: l.unit }] : [];
  });
}

/**
 * Lays carried amounts over a list's lines as hand-added amounts (pure): a food already listed whose unit converts
 * gets the amount added to its line (still to buy, what is in the basket kept); otherwise a `Manual` line of its own.
 */
export function carryInto(list: ShoppingList, carried: readonly CarriedLine[], gramsPerPiece: (foodKey: string) => number | null, newId: () => string): ShoppingLine[] {
  const lines = [...list.lines];
  const after = shoppingStarted(list);
  for (const c of carried) {
    const gpp = gramsPerPiece(c.foodKey);
    const i = lines.findIndex((l) => l.foodKey === c.foodKey && convert(c.quantity, c.unit, l.unit, gpp) !== null);
    const l = lines[i];
    if (l) {
      // Joined as any amount added by hand is (line-amounts.ts): what is in the basket kept, the rest to buy.
      lines[i] = joined(l, convert(c.quantity, c.unit, l.unit, gpp)!, after);
      continue;
    }
    const fresh = { id: newId(), requiredQuantity: c.quantity, extraQuantity: c.quantity, status: 'Buy', purchasedQuantity: 0, purchasedUnit: null, haveQuantity: 0 } as const;
    const hand = { reasonCode: 'Manual', isManual: true, relatedPlanEntryIds: [], addedAfterShopping: after, tickNotified: false, preferenceFit: 'NotAssessed' } as const;
    const unpriced = { suggestedPrice: null, suggestedProductName: null, suggestedPriceSource: 'None', suggestedPriceIsAggregate: false } as const;
    lines.push({ ...c, ...fresh, ...hand, ...unpriced, aisle: aisleOf(c.foodKey) });
  }
  return lines;
}

/**
 * Takes carried amounts back off a list's lines (pure), as far as they are still there: each comes off the hand-added
 * part of the line of its food whose unit converts; a line only a person put there goes once nothing of it is left.
 */
export function takeBack(lines: readonly ShoppingLine[], carried: readonly CarriedLine[], gramsPerPiece: (foodKey: string) => number | null): ShoppingLine[] {
  let left = [...lines];
  for (const c of carried) {
    const gpp = gramsPerPiece(c.foodKey);
    const l = left.find((x) => x.foodKey === c.foodKey && x.extraQuantity > 0 && convert(c.quantity, c.unit, x.unit, gpp) !== null);
    if (!l) continue;
    const less = Math.min(convert(c.quantity, c.unit, l.unit, gpp)!, l.extraQuantity);
    const extraQuantity = tidy(l.extraQuantity - less);
    const gone = extraQuantity <= 0 && (l.reasonCode === 'Manual' || l.reasonCode === 'AddedRecipe');
    left = gone ? left.filter((x) => x.id !== l.id) : left.map((x) => (x.id === l.id ? { ...l, extraQuantity, requiredQuantity: tidy(Math.max(l.requiredQuantity - less, 0)) } : x));
  }
  return left;
}

type TripDenied = Extract<Awaited<ReturnType<typeof refresh>>, { ok: false }>['error'];

/** The next week's plan, made when the week is not planned yet (with its fixed dinners, as the week screen makes it). */
async function nextWeekPlan(deps: ShoppingDeps, householdId: HouseholdId, planId: string): Promise<string | null> {
  const [plan, household] = await Promise.all([deps.plans.byId(householdId, planId), deps.households.byId(householdId)]);
  if (!plan || !household) return null;
  return (await openWeekPlan(deps, household, addDays(plan.weekStart, 7))).id;
}

/**
 * The next week's list brought up to date before a closing carries into it or a reopening takes back from it (a
 * plan with no list yet gets it derived), with the piece weights that derivation read; null when its plan is gone.
 */
async function carryTarget(deps: ShoppingDeps, caller: Account, householdId: HouseholdId, planId: string): Promise<{ planId: string; gramsPerPiece: (foodKey: string) => number | null } | null> {
  const made = await refresh(deps, caller, householdId, planId, false);
  return made.ok ? { planId, gramsPerPiece: made.value.gramsPerPiece } : null;
}

/**
 * The change of the next week's list that goes with a closing (carried amounts put on, `carryInto`) or a reopening
 * (taken back off, `takeBack`), in the same transaction: both or neither. A closed list is left as it is: its trip
 * is over.
 */
function carriedChange(deps: ShoppingDeps, target: { planId: string; gramsPerPiece: (foodKey: string) => number | null }, carried: readonly CarriedLine[], put: boolean): NonNullable<ListEffects['alsoChange']> {
  return {
    planId: target.planId,
    fresh: { listId: deps.ids.newId() },
    decide: (current) => {
      if (!current || current.completedAt !== null) return null;
      const lines = put ? carryInto(current, carried, target.gramsPerPiece, () => deps.ids.newId()) : takeBack(current.lines, carried, target.gramsPerPiece);
      return { ...contentOf(current), lines };
    },
  };
}

/**
 * POST shopping-list/complete (any member), idempotent. The first call closes the trip in one list change that
 * also writes the closing's observations to the pantry (their ids recorded on the list) and queues one
 * `receipt-reminder` push to the caller: all of it or none. `unticked` says what becomes of the lines still to
 * buy (markAllBought=true is `bought`, else `drop`, when it is not given): `bought` buys them whole, `drop` leaves
 * them unbought, `keep` carries what is left of them into the next week's list as hand-added amounts (`unboughtRest`,
 * `carryInto`; the next week's plan is made empty when there is none), recorded on the trip so that reopening takes
 * them back. Later calls write nothing and answer the closed list.
 */
export async function completeShoppingTrip(
  deps: ShoppingDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  input: { markAllBought: boolean; unticked?: Unticked | undefined },
): Promise<Result<ListAnswer, TripDenied>> {
  const listed = await refresh(deps, caller, householdId, planId, false);
  if (!listed.ok) return listed;
  const unticked = input.unticked ?? (input.markAllBought ? 'bought' : 'drop');
  const open = listed.value.list.completedAt === null;
  // The week to carry into, known (and its list up to date) before the closing, so that the trip's record can name it
  // and the carry lands in the closing's own transaction.
  const carryTo = unticked === 'keep' && open && unboughtRest(listed.value.list).length > 0 ? await nextWeekPlan(deps, householdId, planId).then((next) => (next === null ? null : carryTarget(deps, caller, householdId, next))) : null;
  const now = deps.clock.now();
  const { list } = await deps.shoppingLists.change(householdId, planId, { listId: deps.ids.newId() }, (current) => {
    if (!current || current.completedAt !== null) return { write: null, result: null };
    const closed = closeTrip(current, unticked === 'bought', now, () => deps.ids.newId());
    const rest = carryTo === null ? [] : unboughtRest(current);
    const carry = rest.length > 0 ? { planId: carryTo!.planId, lines: rest } : null;
    const content = carry ? { ...closed.content, trip: { ...closed.content.trip!, carried: carry } } : closed.content;
    const reminder = { id: deps.ids.newId(), householdId, event: { kind: 'receipt-reminder', planId, listId: current.id, accountId: caller.id } as const, createdAt: now };
    const alsoChange = carry ? { alsoChange: carriedChange(deps, carryTo!, carry.lines, true) } : {};
    return { write: content, result: null, effects: { addObservations: closed.observations, pushes: [reminder], ...alsoChange } };
  });
  return ok({ list: list ?? listed.value.list, settings: listed.value.settings, priceError: listed.value.priceError });
}

/**
 * POST shopping-list/reopen (any member), idempotent: the trip opens again in one list change that also removes
 * exactly the observations the closing wrote from the pantry; lines the closing carried into the next week's list
 * are taken back off it (while that list is open). Reopening an open list changes nothing.
 */
export async function reopenShoppingTrip(deps: ShoppingDeps, caller: Account, householdId: HouseholdId, planId: string): Promise<Result<ListAnswer, TripDenied>> {
  const listed = await refresh(deps, caller, householdId, planId, false);
  if (!listed.ok) return listed;
  // The list the closing carried into, up to date before the reopening takes the carried amounts back in its own transaction.
  const carriedTo = listed.value.list.trip?.carried;
  const target = carriedTo ? await carryTarget(deps, caller, householdId, carriedTo.planId) : null;
  await deps.shoppingLists.change(householdId, planId, { listId: deps.ids.newId() }, (current) => {
    const opened = current ? reopenTrip(current) : null;
    if (!opened) return { write: null, result: null };
    const carried = current!.trip?.carried;
    const alsoChange = carried && target?.planId === carried.planId ? { alsoChange: carriedChange(deps, target, carried.lines, false) } : {};
    return { write: opened.content, result: null, effects: { removeObservations: opened.observationIds, ...alsoChange } };
  });
  // Open again, the list follows the week and the pantry as a GET would (nothing is written when nothing moved).
  return refresh(deps, caller, householdId, planId, false);
}
