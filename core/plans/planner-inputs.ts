import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { DinnerPriceStore } from '../../ports/dinner-price-store.js';
import type { FoodPrice, PriceProvider } from '../../ports/price-provider.js';
import type { ReceiptStore } from '../../ports/receipt-store.js';
import type { LibraryRecipe } from '../../ports/recipe-library.js';
import { publicMonthsOf } from '../dinnerprices/publish.js';
import { HOUSEHOLD_TYPES, portionsOf } from '../dinnerprices/types.js';
import type { Recipe } from '../recipes/types.js';
import { recipeTitleKey } from '../recipes/types.js';
import { avoidMatcher, type IngredientName } from '../kernel/avoids.js';
import type { IsoDate } from '../kernel/dates.js';
import type { HouseholdId } from '../kernel/ids.js';
import { convert, tidy, unitOf } from '../food/units.js';
import { dishIngredients } from '../events/avoid-gate.js';
import type { PlannerCandidate } from './planner.js';

/** The prefix of a library recipe's id among the candidates (`library:{id}`). */
export const LIBRARY_PREFIX = 'library:';
export const libraryIdOf = (candidateId: string): string | null => (candidateId.startsWith(LIBRARY_PREFIX) ? candidateId.slice(LIBRARY_PREFIX.length) : null);

/** A line as priced: a food, an amount in a unit (null: to taste), and whether the dish needs it. */
interface PricedLine {
  readonly foodKey: string;
  readonly quantity: number | null;
  readonly unit: string | null;
  readonly optional: boolean;
  /** A named base with no recipe here: what it costs cannot be known. */
  readonly unknown?: boolean;
}

/** What the candidates are made of before prices: the dish's own lines (bases included) and its servings. */
export interface CandidateSource {
  readonly id: string;
  readonly title: string;
  readonly minutes: number | null;
  readonly servings: number;
  readonly ingredients: readonly IngredientName[];
  readonly lines: readonly PricedLine[];
  readonly fromLibrary: boolean;
}

/**
 * The household's recipes that are dishes, and, when the household has turned the library on, the library's
 * recipes it has no recipe of the same title for. A recipe that another recipe uses as its base (a dough, a
 * sauce) is a part of a dinner, not one. A recipe's time is its total time, else its active time.
 */
export function candidateSources(recipes: readonly Recipe[], library: readonly LibraryRecipe[] | null): CandidateSource[] {
  const byId = new Map(recipes.map((r) => [r.id, r]));
  const bases = new Set(recipes.flatMap((r) => r.ingredients.map((i) => i.baseRecipeId).filter((b): b is string => b !== null)));
  const out: CandidateSource[] = [];
  for (const r of recipes) {
    if (bases.has(r.id)) continue;
    out.push({
      id: r.id,
      title: r.title,
      minutes: r.totalMinutes ?? r.activeMinutes,
      servings: r.servings,
      ingredients: dishIngredients(r, byId),
      lines: linesOf(r, byId),
      fromLibrary: false,
    });
  }
  if (library) {
    const titles = new Set(recipes.map((r) => recipeTitleKey(r.title)));
    for (const l of library) {
      if (titles.has(recipeTitleKey(l.title))) continue;
      out.push({
        id: `${LIBRARY_PREFIX}${l.id}`,
        title: l.title,
        minutes: l.totalMinutes,
        servings: l.servings,
        ingredients: l.ingredients.map((i) => ({ displayName: i.displayName, foodKey: i.foodKey })),
        lines: l.ingredients.map((i) => ({ foodKey: i.foodKey, quantity: i.quantity, unit: i.unit, optional: false })),
        fromLibrary: true,
      });
    }
  }
  return out;
}

/**
 * The lines a dish buys: its own, and each base's whole (a base line names no amount the base's lines could be
 * scaled by); a named reference with no recipe here has a cost nobody knows.
 */
function linesOf(recipe: Recipe, byId: ReadonlyMap<string, Recipe>, seen = new Set<string>([recipe.id])): PricedLine[] {
  const out: PricedLine[] = [];
  for (const line of recipe.ingredients) {
    const base = line.baseRecipeId === null ? undefined : byId.get(line.baseRecipeId);
    if (base) {
      // A base used twice is bought once.
      if (!seen.has(base.id)) {
        seen.add(base.id);
        out.push(...linesOf(base, byId, seen).map((l) => ({ ...l, optional: l.optional || line.optional })));
      }
      continue;
    }
    if (line.baseRecipeId !== null || line.reference !== null) {
      out.push({ foodKey: line.foodKey, quantity: null, unit: null, optional: line.optional, unknown: true });
      continue;
    }
    out.push({ foodKey: line.foodKey, quantity: line.quantity, unit: line.unit, optional: line.optional });
  }
  return out;
}

/** NOK per portion of a dish, at the given food prices; null when a needed line has no price it converts to. */
export function pricePerPortion(source: Pick<CandidateSource, 'lines' | 'servings'>, prices: ReadonlyMap<string, FoodPrice>): number | null {
  if (!(source.servings > 0)) return null;
  let cost = 0;
  for (const line of source.lines) {
    if (line.optional) continue;
    if (line.unknown) return null;
    if (line.quantity === null || !(line.quantity > 0)) continue;
    // Recipe lines and library ingredients carry normalized keys already (normalizeFoodKey at write and at load).
    const price = prices.get(line.foodKey);
    if (!price) return null;
    const amount = convert(line.quantity, unitOf(line.unit), unitOf(price.unit));
    if (amount === null) return null;
    cost += (amount * price.price) / (price.packageSize ?? 1);
  }
  return tidy(cost / source.servings);
}

/**
 * The food prices the planner estimates with: the list prices at the household's chains, except where the
 * household's own receipts of the last 90 days show what it paid for a food (the newest purchase wins).
 */
export async function plannerPrices(
  deps: { prices: PriceProvider; receipts: ReceiptStore; foodTable: FoodTableStore },
  householdId: HouseholdId,
  foodKeys: readonly string[],
  chains: readonly string[],
  now: Date,
): Promise<Map<string, FoodPrice>> {
  const [listed, lines] = await Promise.all([deps.prices.pricesFor(foodKeys, chains), deps.receipts.linesSince(householdId, new Date(now.getTime() - 90 * 86_400_000))]);
  const bought = lines.filter((l) => l.productId !== null && (l.unitPrice ?? (l.totalPrice !== null && l.quantity > 0 ? l.totalPrice / l.quantity : null)) !== null);
  if (bought.length === 0) return listed;
  const products = new Map((await deps.foodTable.byIds([...new Set(bought.map((l) => l.productId!))])).map((p) => [p.id, p]));
  const wanted = new Set(foodKeys);
  const out = new Map(listed);
  // Receipt lines come oldest receipt first: a later purchase overwrites an earlier one.
  for (const l of bought) {
    const product = products.get(l.productId!);
    const listing = product?.prices[0];
    if (!product || !listing || !wanted.has(product.foodKey)) continue;
    const paid = l.unitPrice ?? l.totalPrice! / l.quantity;
    if (!(paid > 0)) continue;
    out.set(product.foodKey, {
      foodKey: product.foodKey,
      price: paid,
      unit: listing.unit,
      packageSize: listing.packageSize,
      chain: listing.chain,
      productName: product.name,
      isAggregate: false,
      source: 'food-table',
    });
  }
  return out;
}

/**
 * The household's usual price per portion: the median of the dinners it planned in the last eight weeks, at the
 * prices of today, when at least four of them are priced; else the newest published dinner price per portion of
 * the household type nearest its size; else none.
 */
export async function usualPricePerPortion(
  deps: { dinnerPrices: DinnerPriceStore },
  pastDinnerPrices: readonly (number | null)[],
  /** The household's portions on a day all eat at home, by age group (a child a half), not rounded. */
  members: number,
): Promise<number | null> {
  const own = pastDinnerPrices.filter((p): p is number => p !== null).sort((a, b) => a - b);
  if (own.length >= 4) {
    const mid = Math.floor(own.length / 2);
    return tidy(own.length % 2 === 1 ? own[mid]! : (own[mid - 1]! + own[mid]!) / 2);
  }
  const publication = await deps.dinnerPrices.publication();
  if (!publication) return null;
  const months = publicMonthsOf(publication.json);
  const newest = months.reduce<string | null>((m, r) => (m === null || r.month > m ? r.month : m), null);
  if (newest === null) return null;
  const nearest = [...HOUSEHOLD_TYPES].sort((a, b) => Math.abs(portionsOf(a.type) - members) - Math.abs(portionsOf(b.type) - members))[0]!;
  const row = months.find((r) => r.month === newest && r.householdType === nearest.type) ?? months.find((r) => r.month === newest);
  return row ? row.pricePerPortion : null;
}

/** What the household's plans of the weeks read say of one dish: the newest day it was on, and on how many days. */
export interface DishHistory {
  readonly lastEatenOn: IsoDate;
  readonly timesEaten: number;
}

/** Each dish of the given plan days (the weeks before the one planned), with the newest day it was on and its count. */
export function dishHistory(days: readonly { readonly date: IsoDate; readonly recipeId: string | null }[]): Map<string, DishHistory> {
  const out = new Map<string, DishHistory>();
  for (const d of days) {
    if (d.recipeId === null) continue;
    const known = out.get(d.recipeId);
    out.set(d.recipeId, { lastEatenOn: known && known.lastEatenOn > d.date ? known.lastEatenOn : d.date, timesEaten: (known?.timesEaten ?? 0) + 1 });
  }
  return out;
}

/**
 * The candidates: sources with their prices, what the household dislikes marked, and what its plans of the last
 * weeks say of each (eaten lately: on a day from `lately` on).
 */
export function candidatesOf(
  sources: readonly CandidateSource[],
  prices: ReadonlyMap<string, FoodPrice> | null,
  dislikes: readonly string[],
  history: ReadonlyMap<string, DishHistory>,
  lately: IsoDate,
): PlannerCandidate[] {
  const disliked = dislikes.length === 0 ? null : avoidMatcher(dislikes);
  const seen = new Map<string, boolean>();
  const dislikedFood = (i: IngredientName) => {
    const key = `${i.displayName}\u0000${i.foodKey}`;
    let bad = seen.get(key);
    if (bad === undefined) {
      bad = disliked !== null && disliked(i) !== null;
      seen.set(key, bad);
    }
    return bad;
  };
  return sources.map((s) => {
    const eaten = history.get(s.id);
    return {
      id: s.id,
      title: s.title,
      minutes: s.minutes,
      ingredients: s.ingredients,
      pricePerPortion: prices === null ? null : pricePerPortion(s, prices),
      disliked: disliked !== null && s.ingredients.some(dislikedFood),
      eatenLately: eaten !== undefined && eaten.lastEatenOn >= lately,
      lastEatenOn: eaten?.lastEatenOn ?? null,
      timesEaten: eaten?.timesEaten ?? 0,
      fromLibrary: s.fromLibrary,
    };
  });
}
