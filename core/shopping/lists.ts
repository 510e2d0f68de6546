import type { HouseholdStore } from '../../ports/household-store.js';
import type { PantryMergeReader } from '../../ports/pantry-merge-store.js';
import type { FoodPrice, PriceProvider } from '../../ports/price-provider.js';
import type { PushOutbox } from '../../ports/push-outbox.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import type { ListEffects, ShoppingListStore } from '../../ports/shopping-list-store.js';
import type { UnitWeightStore } from '../../ports/unit-weight-store.js';
import type { HouseholdRevisions } from '../../ports/household-revisions.js';
import type { Account } from '../accounts/types.js';
import type { HouseholdWithMembers } from '../households/types.js';
import { requireMember } from '../households/access.js';
import { aisleOf, countsUntil, pantryRowsOf } from '../pantry/model.js';
import type { PantryDeps } from '../pantry/rows.js';
import type { PantryMerge, UnitWeight } from '../pantry/types.js';
import { viewsOf, type PlanDeps } from '../plans/plans.js';
import { withEatersAfter } from '../plans/leftovers-model.js';
import type { Recipe } from '../recipes/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { parseItemText } from './amounts.js';
import { preferenceFitter } from './preferences.js';
import { contentOf, deriveList, heldDays, madeForOf, reconcile, wouldAddOf, type HeldDay } from './derive.js';
import { SHOPPING_QUANTITY_MAX, shoppingSettingsOf, type Derivation, type LineStatus, type ListStamp, type LineChange, type ShoppingLine, type ShoppingList, type ShoppingListContent, type ShoppingSettings } from './types.js';
import { canonicalUnit, convert, PIECE_UNIT, tidy, UNIT_TABLE, unitOf } from '../food/units.js';
import type { PackageOf } from '../food/buy-amounts.js';
import { recordAisleTick, type AisleTickDeps } from './aisle-orders.js';
import { boughtWhole, joined, packField, toBuy } from './line-amounts.js';
import { actedAtOf, changeKindOf, lastChangeOf, laterChangeBy, sameState, withChange } from './line-changes.js';

export { boughtWhole, remainingOf, toBuy } from './line-amounts.js';

export interface ShoppingDeps extends PlanDeps, Pick<PantryDeps, 'pantry' | 'pantryMerges'>, AisleTickDeps {
  households: HouseholdStore;
  recipes: PlanDeps['recipes'] & Pick<RecipeStore, 'byId'>;
  unitWeights: UnitWeightStore;
  pantryMerges: PantryMergeReader;
  prices: PriceProvider;
  shoppingLists: ShoppingListStore;
  pushOutbox: PushOutbox;
  revisions: HouseholdRevisions;
}

/** The list answered, the household's shopping settings, and the price provider's failure when it failed (the list then has no suggestions). */
export interface ListAnswer {
  readonly list: ShoppingList;
  readonly settings: ShoppingSettings;
  readonly priceError: unknown;
}

/** A list just brought up to date, with the household and piece weights its derivation read (for a change to follow). */
export interface Refreshed extends ListAnswer {
  readonly household: HouseholdWithMembers;
  readonly gramsPerPiece: (foodKey: string) => number | null;
  /** The package sizes the household set (householdPacksOf), as the derivation read them. */
  readonly packOf: (foodKey: string) => PackageOf | null;
}

type ListDenied = ErrorOf<'household-not-found' | 'plan-not-found'>;

/**
 * What the household said of its foods' amounts, by food key: grams in one piece (its weight for a piece unit, pcs,
 * stk, …) and the package sizes it set (householdPacksOf), each of the food else of the food it is merged into. Two
 * reads whatever the number of foods.
 */
export async function householdAmounts(
  deps: Pick<ShoppingDeps, 'unitWeights' | 'pantryMerges'>,
  householdId: HouseholdId,
): Promise<{ gramsPerPiece: (foodKey: string) => number | null; packOf: (foodKey: string) => PackageOf | null }> {
  const [weights, merges] = await Promise.all([deps.unitWeights.list(householdId, null), deps.pantryMerges.activeMerges(householdId)]);
  return { gramsPerPiece: pieceWeightsOf(weights, merges), packOf: householdPacksOf(weights, merges) };
}

/** Grams in one piece of each food (householdAmounts), over the weights and merges read already. */
export function pieceWeightsOf(weights: readonly UnitWeight[], merges: readonly PantryMerge[]): (foodKey: string) => number | null {
  const own = new Map<string, number>();
  for (const w of weights) if (canonicalUnit(w.unit) === PIECE_UNIT) own.set(w.foodKey, w.grams);
  const target = new Map(merges.map((m) => [m.fromKey, m.toKey]));
  return (foodKey) => own.get(foodKey) ?? own.get(target.get(foodKey) ?? '') ?? null;
}

/**
 * The package sizes the household set, by food key: its weight for a package unit (pk, bx, fl, bunt: "hakkede tomater,
 * boks, 400 g", set as a unit weight) of the food, else of the food it is merged into; of several package units of a
 * food, the first by unit. A need that converts to grams is then bought in whole packages of that size.
 */
export function householdPacksOf(weights: readonly UnitWeight[], merges: readonly PantryMerge[]): (foodKey: string) => PackageOf | null {
  const own = new Map<string, PackageOf>();
  for (const w of weights) {
    const unit = canonicalUnit(w.unit);
    if (unit !== null && UNIT_TABLE[unit].dimension === 'package' && w.grams > 0 && !own.has(w.foodKey)) own.set(w.foodKey, { packUnit: unit, quantity: w.grams, unit: 'g' });
  }
  const target = new Map(merges.map((m) => [m.fromKey, m.toKey]));
  return (foodKey) => own.get(foodKey) ?? own.get(target.get(foodKey) ?? '') ?? null;
}

/** Derived lists hold at most this long without a read deriving them again (a bound on anything unforeseen). */
export const DERIVATION_HOLDS_MS = 86_400_000;

/**
 * The revision of everything a list is derived from (the household's inputs and the prices), or null when it
 * cannot be told (the list is then derived on every read). A food-table provider's revision comes from the sync
 * time read with the household's revision; another provider is asked.
 */
async function inputsRevision(deps: Pick<ShoppingDeps, 'prices'>, read: { householdRevision: string | null; foodTableSyncedAt: Date | null }): Promise<string | null> {
  const prices = deps.prices.revisionAt ? deps.prices.revisionAt(read.foodTableSyncedAt) : await deps.prices.revision().catch(() => null);
  return read.householdRevision === null || prices === null ? null : `${read.householdRevision}/${prices}`;
}

/** A stored list is current when closed (never derived again) or derived from today's revision and still within its hold. */
const isCurrent = (stamp: ListStamp, revision: string | null, now: Date) =>
  stamp.completedAt !== null || (revision !== null && stamp.derivation !== null && stamp.derivation.from === revision && now.getTime() < stamp.derivation.until.getTime());

/**
 * Derives the week's list from the plan, its recipes, the pantry and prices, and stores it over the stored one
 * (ticks and hand-added amounts kept). Without `force` (GET) the stored list is left alone, version included,
 * unless the derived content differs, and a closed list is never derived again; with it (generate) the list is
 * written and generatedAt moves to now. The week asks before buying more: without `force` a day keeps the portions
 * the stored list was made for when they have risen since (heldDays), and what the rise would add is the list's
 * wouldAdd; generate applies it. The hold is decided against the stored list inside the store's change, so two
 * changes at once see each other (two generates apply a rise once: both write the week as it is). The derivation is
 * recorded with the revision read before the inputs (a write landing meanwhile leaves it behind the revision, so
 * the next read derives again) and holds until the first counted pantry row may stop counting; one priced without
 * prices is not recorded.
 */
export async function refresh(deps: ShoppingDeps, caller: Account, householdId: HouseholdId, planId: string, force: boolean): Promise<Result<Refreshed, ListDenied>> {
  // One read of every input, the revision with them: a write landing after it moves the revision past the one recorded.
  const inputs = await deps.shoppingLists.inputs(householdId, planId);
  const household = inputs.household;
  // Not a member: as if the household did not exist.
  if (!household || !household.members.some((m) => m.accountId === caller.id)) return fail({ type: 'household-not-found' });
  if (!inputs.plan) return fail({ type: 'plan-not-found' });
  const revision = await inputsRevision(deps, inputs);
  const recipes = new Map<string, Recipe>(inputs.recipes.map((r) => [r.id, r]));
  const titles = Object.fromEntries(inputs.recipes.map((r) => [r.id, r.title]));
  // A day of the next week may eat leftovers cooked this week: the cooking day is bought for it too.
  const eaters = await withEatersAfter(deps, householdId, inputs.plan);
  const plan = viewsOf(household, [inputs.plan], [...inputs.events, ...eaters.events], titles, eaters.rows)[0]!;
  const pantry = pantryRowsOf(inputs.observations, inputs.merges, deps.clock.now());
  const gramsPerPiece = pieceWeightsOf(inputs.unitWeights, inputs.merges);
  const packOf = householdPacksOf(inputs.unitWeights, inputs.merges);
  const derive = (days: readonly HeldDay[], prices: ReadonlyMap<string, FoodPrice>) => deriveList({ plan: { days }, recipes, pantry, gramsPerPiece, packOf, prices, dislikes: household.dislikes });
  // The week as it is, unpriced: every food any derivation below can list (a held day needs no more than it).
  const full = derive(plan.days, new Map());
  let prices = new Map<string, FoodPrice>();
  let priceError: unknown = null;
  // With the price catalogue off the household wants no suggested prices: none are asked for.
  if (full.lines.length > 0 && household.priceCatalogueOn) {
    try {
      prices = await deps.prices.pricesFor([...new Set(full.lines.map((l) => l.foodKey))], household.chains);
    } catch (err) {
      priceError = err;
    }
  }
  const now = deps.clock.now();
  const { list } = await deps.shoppingLists.change(householdId, planId, { listId: deps.ids.newId() }, (current) => {
    if (current !== null && current.completedAt !== null && !force) return { write: null, result: null };
    const days = force ? plan.days : heldDays(plan.days, current?.madeFor ?? {});
    const holding = days.some((d, i) => d.portions !== plan.days[i]!.portions);
    const applied = holding || prices.size > 0 ? derive(days, prices) : full;
    const counted = holding ? [...applied.pantryCounted, ...full.pantryCounted] : applied.pantryCounted;
    const until = Math.min(now.getTime() + DERIVATION_HOLDS_MS, ...counted.map((r) => countsUntil(r, now)!.getTime()));
    const derivation: Derivation | null = revision !== null && priceError === null ? { from: revision, until: new Date(until) } : null;
    const ask = { madeFor: madeForOf(days), wouldAdd: holding ? wouldAddOf(full, applied) : [] };
    return { write: reconcile(current, applied, () => deps.ids.newId(), now, force, ask), result: null, derivation };
  });
  return ok({ list: list!, settings: shoppingSettingsOf(household), priceError, household, gramsPerPiece, packOf });
}

/** A read of a list: the caller already holds the stored version (`unchanged`), or the list. */
export type ListRead = { readonly kind: 'unchanged'; readonly stamp: ListStamp; readonly settings: ShoppingSettings } | { readonly kind: 'list'; readonly answer: ListAnswer };

/**
 * GET shopping-list: the stored list, derived again first when anything it was derived from has moved since (the
 * week, the pantry, recipes, members, settings, prices) or a counted pantry row may have decayed. When the stored
 * list is current and `clientHas` its stamp, nothing more is read: a 304 costs one read of the list's state (the
 * caller's membership, the stamp and the revisions, together).
 */
export async function readShoppingList(
  deps: ShoppingDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  clientHas: (stamp: ListStamp, settings: ShoppingSettings) => boolean,
): Promise<Result<ListRead, ListDenied>> {
  const state = await deps.shoppingLists.state(householdId, planId, caller.id);
  if (!state.member || !state.settings) return fail({ type: 'household-not-found' });
  const { stamp, settings } = state;
  const revision = await inputsRevision(deps, state);
  if (stamp && isCurrent(stamp, revision, deps.clock.now())) {
    if (clientHas(stamp, settings)) return ok({ kind: 'unchanged', stamp, settings });
    const list = await deps.shoppingLists.byPlan(householdId, planId);
    if (list && list.version === stamp.version) return ok({ kind: 'list', answer: { list, settings, priceError: null } });
  }
  const answer = await refresh(deps, caller, householdId, planId, false);
  return answer.ok ? ok({ kind: 'list', answer: answer.value }) : answer;
}

/** GET shopping-list without a tag held: the list, derived again first when its inputs moved. */
export async function getShoppingList(deps: ShoppingDeps, caller: Account, householdId: HouseholdId, planId: string): Promise<Result<ListAnswer, ListDenied>> {
  const read = await readShoppingList(deps, caller, householdId, planId, () => false);
  if (!read.ok) return read;
  if (read.value.kind !== 'list') throw new Error('a read asking for the list answered none');
  return ok(read.value.answer);
}

/** POST shopping-list/generate: derives the list again now. */
export const generateShoppingList = (deps: ShoppingDeps, caller: Account, householdId: HouseholdId, planId: string) => refresh(deps, caller, householdId, planId, true);

/** Shopping has begun once a line has a purchase on it or the trip was closed. */
export const shoppingStarted = (list: ShoppingList | null) => list !== null && (list.completedAt !== null || list.lines.some((l) => l.status === 'Purchased' || l.purchasedQuantity > 0));

export const inBounds = (q: number) => Number.isFinite(q) && q > 0 && q <= SHOPPING_QUANTITY_MAX;

/**
 * POST shopping-list/items. Without quantity and unit, both are read from the name ("2 kg poteter"); no amount
 * means 1 piece. A food already on the list whose unit converts (pieces ↔ mass with the household's piece weight)
 * gets the amount added to that line (`joined`: what is in the basket stays, and the line opens again for the rest);
 * otherwise the food gets a line of its own. The
 * hand-added amount survives derivation. One `list-item-added` push is queued with the write.
 */
export async function addShoppingItem(
  deps: ShoppingDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  input: { displayName: string; quantity?: number | undefined; unit?: string | undefined },
): Promise<Result<ShoppingLine, ListDenied | ErrorOf<'shopping-item-name-empty' | 'shopping-quantity-out-of-bounds'>>> {
  const text = input.displayName.trim().replace(/\s+/g, ' ');
  if (text === '') return fail({ type: 'shopping-item-name-empty' });
  const parsed = input.quantity === undefined && input.unit === undefined ? parseItemText(text) : { quantity: null, unit: null, name: text };
  const quantity = input.quantity ?? parsed.quantity ?? 1;
  const unit = unitOf(input.unit ?? parsed.unit);
  const name = parsed.name.trim();
  const foodKey = normalizeFoodKey(name);
  if (name === '' || foodKey === '') return fail({ type: 'shopping-item-name-empty' });
  if (!inBounds(quantity)) return fail({ type: 'shopping-quantity-out-of-bounds' });
  const listed = await refresh(deps, caller, householdId, planId, false);
  if (!listed.ok) return listed;
  // The household and piece weights as the refresh just read them: no second read.
  const gpp = listed.value.gramsPerPiece(foodKey);
  const preferenceFit = preferenceFitter(listed.value.household.dislikes)({ displayName: name, foodKey });
  const { result: line } = await deps.shoppingLists.change(householdId, planId, { listId: deps.ids.newId() }, (current) => {
    const lines = [...(current?.lines ?? [])];
    const i = lines.findIndex((l) => l.foodKey === foodKey && convert(quantity, unit, l.unit, gpp) !== null);
    const after = shoppingStarted(current);
    let changed: ShoppingLine;
    if (i >= 0) {
      changed = joined(lines[i]!, convert(quantity, unit, lines[i]!.unit, gpp)!, after);
      lines[i] = changed;
    } else {
      changed = {
        id: deps.ids.newId(),
        foodKey,
        displayName: name,
        requiredQuantity: tidy(quantity),
        unit,
        extraQuantity: tidy(quantity),
        status: 'Buy',
        purchasedQuantity: 0,
        purchasedUnit: null,
        reasonCode: 'Manual',
        haveQuantity: 0,
        relatedPlanEntryIds: [],
        isManual: true,
        addedAfterShopping: after,
        aisle: aisleOf(foodKey),
        suggestedPrice: null,
        suggestedProductName: null,
        suggestedPriceSource: 'None',
        suggestedPriceIsAggregate: false,
        tickNotified: false,
        preferenceFit,
        ...packField(listed.value.packOf(foodKey)),
      };
      lines.push(changed);
    }
    const push = { id: deps.ids.newId(), householdId, event: { kind: 'list-item-added', planId, lineId: changed.id, displayName: changed.displayName, actorAccountId: caller.id } as const, createdAt: deps.clock.now() };
    const content = contentOf(current ?? listed.value.list);
    // An amount joining a line is a change of it: a change of the line made offline before this, and sent later, loses.
    const joinedChange = i >= 0 ? withChange(content, { lineId: changed.id, displayName: changed.displayName, change: 'Amount', at: deps.clock.now(), by: caller.id }) : {};
    return { write: { ...content, lines, ...joinedChange }, result: changed, effects: { pushes: [push] } };
  });
  return ok(line);
}

/** A line that counts toward the list's to-buy count and price total: still to buy, and not only for optional ingredients. */
export const countsToBuy = (l: ShoppingLine): boolean => l.status === 'Buy' && l.reasonCode !== 'OptionalOnly';

/**
 * The list's to-buy count and price total: the lines that count toward them, and the sum of their suggested
 * prices (one package each, as suggested); null when none of them has a price.
 */
export function listTotals(list: Pick<ShoppingList, 'lines'>): { readonly toBuyCount: number; readonly priceTotal: number | null } {
  const counted = list.lines.filter(countsToBuy);
  const priced = counted.filter((l) => l.suggestedPrice !== null);
  return { toBuyCount: counted.length, priceTotal: priced.length === 0 ? null : tidy(priced.reduce((sum, l) => sum + l.suggestedPrice!, 0)) };
}


/**
 * PATCH shopping-items/{id}. `Buy` clears the line's purchase. `Purchased` without an amount means all of it was
 * bought: what a shop sells for the rest, rounded up, joins what was in the basket (`boughtWhole`); with one, the amount is the total bought so far (a retry sets the same), converted to the line's unit
 * when the units convert (pieces ↔ mass by the household's piece weight): less than the line needs keeps the
 * line open (`Buy`) with purchasedQuantity set, the remainder still to buy. A unit that does not convert is kept
 * as said (purchasedUnit) and the line stays open. The first purchase on a line queues one `list-items-ticked`, in
 * the same write. `actedAt`, for a change sent late, is when it was made: someone else's later change of the line
 * wins (core/shopping/line-changes.ts), and a line someone removed before it comes back with it.
 */
export async function updateShoppingItem(
  deps: ShoppingDeps,
  caller: Account,
  householdId: HouseholdId,
  itemId: string,
  input: { status: LineStatus; purchasedQuantity?: number | undefined; purchasedUnit?: string | undefined; actedAt?: Date | undefined },
): Promise<Result<ShoppingLine, ErrorOf<'household-not-found' | 'shopping-item-not-found' | 'shopping-quantity-out-of-bounds' | 'shopping-line-changed'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  if (input.purchasedQuantity !== undefined && !inBounds(input.purchasedQuantity)) return fail({ type: 'shopping-quantity-out-of-bounds' });
  const late = input.actedAt !== undefined;
  const found = (await deps.shoppingLists.byLine(householdId, itemId)) ?? (late ? await deps.shoppingLists.byRemovedLine(householdId, itemId) : null);
  const before = found?.lines.find((l) => l.id === itemId) ?? (found && lastChangeOf(found, itemId)?.line);
  if (!found || !before) return fail({ type: 'shopping-item-not-found' });
  const gpp = input.purchasedUnit !== undefined ? (await householdAmounts(deps, householdId)).gramsPerPiece(before.foodKey) : null;
  const at = actedAtOf(input.actedAt, deps.clock.now());
  const { result } = await deps.shoppingLists.change(householdId, found.planId, { listId: found.id }, (current): { write: ShoppingListContent | null; result: ShoppingLine | LineChange | null; effects?: ListEffects } => {
    const lines = [...(current?.lines ?? [])];
    let i = lines.findIndex((l) => l.id === itemId);
    if (!current) return { write: null, result: null };
    const later = late ? laterChangeBy(current, itemId, caller.id, at) : null;
    if (i < 0) {
      // Removed: by someone after this change was made (it loses), or before it (the line comes back with it).
      const removed = late ? lastChangeOf(current, itemId) : null;
      if (removed?.change !== 'Removed' || !removed.line) return { write: null, result: null };
      if (later) return { write: null, result: later };
      i = lines.push(removed.line) - 1;
    }
    const l = lines[i]!;
    let next = purchased(l, input, gpp);
    // Someone else changed the line after this change was made: theirs stands, unless it is what this one asks for.
    if (later) return { write: null, result: sameState(next, l) ? l : later };
    const ticked = next.purchasedQuantity > 0 || next.status === 'Purchased';
    const first = ticked && !l.tickNotified;
    if (first) next = { ...next, tickNotified: true };
    lines[i] = next;
    const pushes = first ? [{ id: deps.ids.newId(), householdId, event: { kind: 'list-items-ticked', planId: found.planId, lineId: itemId, actorAccountId: caller.id } as const, createdAt: deps.clock.now() }] : [];
    const change = { lineId: itemId, displayName: l.displayName, change: changeKindOf(input), at, by: caller.id };
    return { write: { ...contentOf(current), lines, ...withChange(current, change) }, result: next, effects: { pushes } };
  });
  if (!result) return fail({ type: 'shopping-item-not-found' });
  if (!('id' in result)) return fail(await lineChanged(deps, householdId, result));
  // A line that became Purchased teaches the store's aisle order (core/shopping/aisle-order.ts) once the trip is finished.
  await recordAisleTick(deps, householdId, found, result, found.lines.find((l) => l.id === itemId)?.status);
  return ok(result);
}

/** A line after a PATCH's purchase (before its push flag): cleared, bought whole, or bought in part. */
function purchased(l: ShoppingLine, input: { status: LineStatus; purchasedQuantity?: number | undefined; purchasedUnit?: string | undefined }, gpp: number | null): ShoppingLine {
  if (input.status === 'Buy') return { ...l, status: 'Buy', purchasedQuantity: 0, purchasedUnit: null };
  if (input.purchasedQuantity === undefined) return { ...l, status: 'Purchased', purchasedQuantity: boughtWhole(l), purchasedUnit: null };
  const said = input.purchasedUnit === undefined ? l.unit : unitOf(input.purchasedUnit);
  const q = convert(input.purchasedQuantity, said, l.unit, gpp);
  return q === null
    ? { ...l, status: 'Buy', purchasedQuantity: input.purchasedQuantity, purchasedUnit: said }
    : { ...l, status: q >= toBuy(l) ? 'Purchased' : 'Buy', purchasedQuantity: tidy(q), purchasedUnit: null };
}

/** The failure of a change that a later one outranks: what was done, by whom (the member's name), when, to which line. */
async function lineChanged(deps: ShoppingDeps, householdId: HouseholdId, c: LineChange): Promise<ErrorOf<'shopping-line-changed'>> {
  const household = await deps.households.byId(householdId);
  const by = household?.members.find((m) => m.accountId === c.by);
  return { type: 'shopping-line-changed', change: c.change, changedBy: by?.displayName ?? null, changedAt: c.at, displayName: c.displayName };
}

/** A line no dish of the week needs: only a person put it on the list (by hand, or with a recipe added by hand). */
export const removableByHand = (l: ShoppingLine): boolean => l.reasonCode === 'Manual' || l.reasonCode === 'AddedRecipe';

/**
 * DELETE shopping-items/{id}. A line only a person put on the list goes, whatever its ticks, and does not come back
 * when the list is derived again. A line the week's dishes need is derived and stays (`shopping-line-not-removable`),
 * even when an amount was added to it by hand. The list is brought up to date first, so a line whose dish left the
 * week since the last derivation counts as the hand-added line it now is.
 */
export async function removeShoppingItem(
  deps: ShoppingDeps,
  caller: Account,
  householdId: HouseholdId,
  itemId: string,
  input: { actedAt?: Date | undefined } = {},
): Promise<Result<void, ErrorOf<'household-not-found' | 'plan-not-found' | 'shopping-item-not-found' | 'shopping-line-not-removable' | 'shopping-line-changed'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const found = await deps.shoppingLists.byLine(householdId, itemId);
  if (!found) return fail({ type: 'shopping-item-not-found' });
  const current = await refresh(deps, caller, householdId, found.planId, false);
  if (!current.ok) return current;
  const at = actedAtOf(input.actedAt, deps.clock.now());
  const { result } = await deps.shoppingLists.change<'not-found' | 'derived' | 'removed' | LineChange>(householdId, found.planId, { listId: found.id }, (list) => {
    const line = list?.lines.find((l) => l.id === itemId);
    // Derived away, or removed by someone else, since the read.
    if (!list || !line) return { write: null, result: 'not-found' as const };
    // Sent late, and someone else changed the line since (ticked it, say): their change stands.
    const later = input.actedAt === undefined ? null : laterChangeBy(list, itemId, caller.id, at);
    if (later) return { write: null, result: later };
    if (!removableByHand(line)) return { write: null, result: 'derived' as const };
    // The line is kept with its removal, so that a later change of it, sent late, can put it back.
    const removal = { lineId: itemId, displayName: line.displayName, change: 'Removed' as const, at, by: caller.id, line };
    return { write: { ...contentOf(list), lines: list.lines.filter((l) => l.id !== itemId), ...withChange(list, removal) }, result: 'removed' as const };
  });
  if (result === 'not-found') return fail({ type: 'shopping-item-not-found' });
  if (result === 'derived') return fail({ type: 'shopping-line-not-removable' });
  if (result !== 'removed') return fail(await lineChanged(deps, householdId, result));
  return ok(undefined);
}
