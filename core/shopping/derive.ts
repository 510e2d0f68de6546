import type { FoodPrice } from '../../ports/price-provider.js';
import { AISLES, aisleOf } from '../pantry/model.js';
import type { PantryRow } from '../pantry/types.js';
import type { PlanView } from '../plans/plans.js';
import type { Recipe } from '../recipes/types.js';
import { preferenceFitter } from './preferences.js';
import type { IsoDate } from '../kernel/dates.js';
import type { MadeForDay, PreferenceFit, ShoppingLine, ShoppingList, ShoppingListContent, WouldAdd } from './types.js';
import { convert, tidy, unitOf } from '../food/units.js';
import { packField, settled, withPack } from './line-amounts.js';
import { packageOfPrice, type PackageOf } from '../food/buy-amounts.js';

/** A line as the week derives it, before ticks and hand-added amounts are laid over it. */
export type DerivedLine = Omit<ShoppingLine, 'id' | 'extraQuantity' | 'status' | 'purchasedQuantity' | 'purchasedUnit' | 'isManual' | 'addedAfterShopping' | 'tickNotified'>;

export interface DerivedList {
  readonly lines: readonly DerivedLine[];
  /** How a food fits the household's dislikes (for lines kept from the stored list as well). */
  readonly fitOf: (food: { readonly displayName: string; readonly foodKey: string }) => PreferenceFit;
  /** The package size the household set for a food (for lines kept from the stored list as well). */
  readonly packOf: (foodKey: string) => PackageOf | null;
  readonly skippedReferences: readonly string[];
  /** The pantry rows counted against the need (their decay is what can change the list with time alone). */
  readonly pantryCounted: readonly PantryRow[];
}

export interface DeriveInput {
  /** The days that need dishes (a recipe added by hand is one such day of its own). */
  readonly plan: { readonly days: readonly Pick<PlanView['days'][number], 'id' | 'cookedAtHome' | 'recipeId' | 'portions'>[] };
  /** The week's recipes and every base recipe they reach, by id. */
  readonly recipes: ReadonlyMap<string, Recipe>;
  readonly pantry: readonly PantryRow[];
  /** The household's grams in one piece of a food, or null (pieces then never convert to mass). */
  gramsPerPiece(foodKey: string): number | null;
  /** The package size the household set for a food (lists.ts householdPacksOf); it wins over a list price's. None given: none set. */
  packOf?(foodKey: string): PackageOf | null;
  /** Prices by food key; empty when the provider failed. */
  readonly prices: ReadonlyMap<string, FoodPrice>;
  /** The household's dislikes (its own words): each line's preferenceFit. */
  readonly dislikes: readonly string[];
}

const PANTRY_GROUPS = new Set(['UseSoon', 'LikelyAvailable']);

interface Bucket {
  foodKey: string;
  displayName: string;
  unit: string;
  quantity: number;
  entries: string[];
  /** Only optional ingredients (or lines of an optional base) need it. */
  optional: boolean;
}

/**
 * The week's shopping need. Each day cooked at home with a dish adds the dish's lines scaled by the day's
 * portions over the recipe's servings. A line pointing at a base recipe adds the base's own lines, scaled by the
 * dish's factor times the line's quantity (the number of batches of the base; none given: one). Named references
 * the dish needs are reported, never bought; "to taste" lines (no quantity) count as 0 of the
 * food. Per food, amounts merge into the first line whose unit converts (pieces ↔ mass with the household's
 * piece weight); a unit that does not convert starts a line of its own. Optional lines (and every line of a base
 * an optional line points at) are kept apart: a food that some required line needs gets none of them, and a food
 * only optional lines need is an `OptionalOnly` line of their amounts. The pantry's UseSoon and LikelyAvailable
 * rows count against the first line of their food whose unit converts, required lines first: a food the pantry
 * covers whole is not listed; one it covers in part is `PartlyInPantry` (or stays `OptionalOnly`) with the row's
 * amount in haveQuantity.
 */
export function deriveList(input: DeriveInput): DerivedList {
  const buckets: Bucket[] = [];
  const skipped: string[] = [];
  const add = (foodKey: string, displayName: string, quantity: number, unit: string, entry: string, optional: boolean) => {
    const gpp = input.gramsPerPiece(foodKey);
    for (const b of buckets) {
      if (b.foodKey !== foodKey || b.optional !== optional) continue;
      const q = convert(quantity, unit, b.unit, gpp);
      if (q === null) continue;
      b.quantity = tidy(b.quantity + q);
      if (!b.entries.includes(entry)) b.entries.push(entry);
      return;
    }
    buckets.push({ foodKey, displayName, unit, quantity: tidy(quantity), entries: [entry], optional });
  };
  const expand = (recipe: Recipe, factor: number, entry: string, seen: ReadonlySet<string>, optional: boolean) => {
    for (const line of recipe.ingredients) {
      const lineOptional = optional || line.optional;
      if (line.baseRecipeId !== null) {
        const base = input.recipes.get(line.baseRecipeId);
        // Recipes refuse cycles; `seen` only keeps a damaged store from looping.
        if (base && !seen.has(base.id)) expand(base, factor * (line.quantity ?? 1), entry, new Set([...seen, base.id]), lineOptional);
        continue;
      }
      if (line.reference !== null) {
        // A reference is reported when the dish needs it; an optional one is nothing to report.
        if (!lineOptional && !skipped.includes(line.reference)) skipped.push(line.reference);
        continue;
      }
      add(line.foodKey, line.displayName, (line.quantity ?? 0) * factor, unitOf(line.unit), entry, lineOptional);
    }
  };
  for (const day of input.plan.days) {
    if (!day.cookedAtHome || day.recipeId === null || day.portions <= 0) continue;
    const recipe = input.recipes.get(day.recipeId);
    if (!recipe) continue;
    expand(recipe, day.portions / recipe.servings, day.id, new Set([recipe.id]), false);
  }
  const required = new Set(buckets.filter((b) => !b.optional).map((b) => b.foodKey));
  const needed = [...buckets.filter((b) => !b.optional), ...buckets.filter((b) => b.optional && !required.has(b.foodKey))];

  const pantry = new Map(input.pantry.filter((r) => PANTRY_GROUPS.has(r.group) && r.estimatedQuantity > 0).map((r) => [r.foodKey, r]));
  const fitOf = preferenceFitter(input.dislikes);
  const householdPack = (foodKey: string) => input.packOf?.(foodKey) ?? null;
  const lines: DerivedLine[] = [];
  const counted: PantryRow[] = [];
  for (const b of needed) {
    const row = pantry.get(b.foodKey);
    const have = row ? convert(row.estimatedQuantity, unitOf(row.unit), b.unit, input.gramsPerPiece(b.foodKey)) : null;
    if (row && have !== null) {
      pantry.delete(b.foodKey);
      counted.push(row);
    }
    if (have !== null && have >= b.quantity) continue;
    const price = input.prices.get(b.foodKey);
    lines.push({
      foodKey: b.foodKey,
      displayName: b.displayName,
      requiredQuantity: b.quantity,
      unit: b.unit,
      reasonCode: b.optional ? 'OptionalOnly' : have !== null && have > 0 ? 'PartlyInPantry' : 'Planned',
      haveQuantity: have !== null ? tidy(have) : 0,
      relatedPlanEntryIds: b.entries,
      aisle: aisleOf(b.foodKey),
      suggestedPrice: price?.price ?? null,
      suggestedProductName: price?.productName ?? null,
      suggestedPriceSource: price ? 'FoodTable' : 'None',
      suggestedPriceIsAggregate: price?.isAggregate ?? false,
      preferenceFit: fitOf(b),
      ...packField(householdPack(b.foodKey) ?? (price ? packageOfPrice(price) : null)),
    });
  }
  const aisleRank = (a: string) => (AISLES as readonly string[]).indexOf(a);
  lines.sort((a, b) => aisleRank(a.aisle) - aisleRank(b.aisle) || cmp(a.foodKey, b.foodKey) || cmp(a.unit, b.unit));
  return { lines, fitOf, packOf: householdPack, skippedReferences: skipped, pantryCounted: counted };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A day of the plan as the list's hold looks at it. */
export type HeldDay = Pick<PlanView['days'][number], 'id' | 'date' | 'cookedAtHome' | 'recipeId' | 'portions' | 'portionsOverride'> & Partial<Pick<PlanView['days'][number], 'leftoversFor'>>;

/**
 * The days as the list applies them (the week asks before buying more): a day keeps the portions the
 * list was made for while its dish is the same and its portions have risen since (guests, a member back, a day
 * opened again); a drop applies at once, and so do a new dish, a portions override and a day cooked for leftovers too
 * (a person's own choice on the plan, not an event's).
 */
export function heldDays<D extends HeldDay>(days: readonly D[], madeFor: Readonly<Record<IsoDate, MadeForDay>>): D[] {
  return days.map((d) => {
    const made = madeFor[d.date];
    const overridden = d.cookedAtHome && (d.portionsOverride !== null || (d.leftoversFor?.length ?? 0) > 0);
    return made && d.recipeId !== null && made.recipeId === d.recipeId && !overridden && d.portions > made.portions ? { ...d, portions: made.portions } : d;
  });
}

/** What a list made from `days` is made for: each day with a dish, its dish and portions. */
export const madeForOf = (days: readonly HeldDay[]): Record<IsoDate, MadeForDay> =>
  Object.fromEntries(days.flatMap((d) => (d.recipeId === null ? [] : [[d.date, { recipeId: d.recipeId, portions: d.portions }]])));

/** What `full` (the week as it is) has to buy beyond `applied` (the week as the list holds it), per food and unit, in `full`'s order. */
export function wouldAddOf(full: DerivedList, applied: DerivedList): WouldAdd[] {
  // One line per food and unit in a derivation (lines merge per food and unit; optional ones give way to required ones).
  const key = (l: DerivedLine) => `${l.foodKey}\u0000${l.unit}`;
  const toBuy = (l: DerivedLine) => Math.max(l.requiredQuantity - l.haveQuantity, 0);
  const held = new Map(applied.lines.map((l) => [key(l), toBuy(l)]));
  return full.lines.flatMap((l) => {
    const quantity = tidy(toBuy(l) - (held.get(key(l)) ?? 0));
    return quantity > 0 ? [{ foodKey: l.foodKey, displayName: l.displayName, quantity, unit: l.unit }] : [];
  });
}

/** What the list asks (from the hold): the days it is made for and what generate would add. */
export interface ListAsk {
  readonly madeFor: Readonly<Record<IsoDate, MadeForDay>>;
  readonly wouldAdd: readonly WouldAdd[];
}

/**
 * The stored list after deriving again: a derived line takes over the stored line of the same food and unit
 * (its id, ticks, hand-added amount, push flag), and its status follows its amounts (`settled`: a line whose need grew
 * past what is in the basket opens again for the rest, the basket kept); a stored line with a hand-added amount and no derived match
 * stays as a `Manual` line of that amount; other stored lines go. The references of recipes added by hand stay
 * among the skipped ones. `ask` is what the list now asks (default: what it asked, nothing more to add); staleSince
 * is kept from the stored list while there is something to add, set to `now` when there newly is, and cleared when
 * there is none. `generatedAt` moves to `now` when forced (generate) or when the content changed.
 */
export function reconcile(
  current: ShoppingList | null,
  derived: DerivedList,
  newId: () => string,
  now: Date,
  force: boolean,
  ask: ListAsk = { madeFor: current?.madeFor ?? {}, wouldAdd: [] },
): ShoppingListContent | null {
  const used = new Set<string>();
  const lines: ShoppingLine[] = derived.lines.map((d) => {
    const match = current?.lines.find((l) => !used.has(l.id) && l.foodKey === d.foodKey && l.unit === d.unit);
    if (match) used.add(match.id);
    const extra = match?.extraQuantity ?? 0;
    const line: ShoppingLine = {
      ...d,
      id: match?.id ?? newId(),
      requiredQuantity: tidy(d.requiredQuantity + extra),
      extraQuantity: extra,
      status: match?.status ?? 'Buy',
      purchasedQuantity: match?.purchasedQuantity ?? 0,
      purchasedUnit: match?.purchasedUnit ?? null,
      isManual: match?.isManual ?? false,
      addedAfterShopping: match?.addedAfterShopping ?? false,
      tickNotified: match?.tickNotified ?? false,
    };
    return settled(line);
  });
  for (const l of current?.lines ?? []) {
    if (used.has(l.id) || l.extraQuantity <= 0) continue;
    // Only the household's package sizes reach a line no derivation prices.
    lines.push(
      settled({
        ...withPack(l, derived.packOf(l.foodKey)),
        requiredQuantity: l.extraQuantity,
        reasonCode: l.reasonCode === 'AddedRecipe' ? 'AddedRecipe' : 'Manual',
        haveQuantity: 0,
        relatedPlanEntryIds: [],
        preferenceFit: derived.fitOf(l),
      }),
    );
  }
  const addedReferences = current?.addedReferences ?? [];
  const skippedReferences = [...new Set([...derived.skippedReferences, ...addedReferences])];
  const staleSince = ask.wouldAdd.length === 0 ? null : (current?.staleSince ?? now);
  const changed =
    current === null ||
    !sameContent(current, { skippedReferences, lines }) ||
    JSON.stringify([current.madeFor, current.wouldAdd, current.staleSince]) !== JSON.stringify([ask.madeFor, ask.wouldAdd, staleSince]);
  if (!changed && !force) return null;
  return {
    skippedReferences,
    addedReferences,
    lines,
    generatedAt: now,
    completedAt: current?.completedAt ?? null,
    trip: current?.trip ?? null,
    madeFor: ask.madeFor,
    wouldAdd: ask.wouldAdd,
    staleSince,
    ...personChangesOf(current),
  };
}

/** The content fields of a stored list (what a write sets), for a change that keeps all but some of them. */
export const contentOf = (l: ShoppingListContent): ShoppingListContent => ({
  generatedAt: l.generatedAt,
  completedAt: l.completedAt,
  skippedReferences: l.skippedReferences,
  addedReferences: l.addedReferences,
  trip: l.trip,
  lines: l.lines,
  madeFor: l.madeFor,
  wouldAdd: l.wouldAdd,
  staleSince: l.staleSince,
  ...personChangesOf(l),
});

/** A list's person changes as a field to spread: left out where the list has none (as it was stored). */
const personChangesOf = (l: Pick<ShoppingListContent, 'personChanges'> | null): Pick<ShoppingListContent, 'personChanges'> =>
  l?.personChanges === undefined ? {} : { personChanges: l.personChanges };

/** Same lines (every field, in order) and references: key order of the objects does not matter. */
export function sameContent(a: Pick<ShoppingListContent, 'lines' | 'skippedReferences'>, b: Pick<ShoppingListContent, 'lines' | 'skippedReferences'>): boolean {
  const canon = (c: Pick<ShoppingListContent, 'lines' | 'skippedReferences'>) =>
    JSON.stringify([c.skippedReferences, c.lines.map((l) => Object.keys(l).sort().map((k) => [k, l[k as keyof ShoppingLine]]))]);
  return canon(a) === canon(b);
}
