import type { Clock } from '../../ports/clock.js';
import type { DinnerPriceStore } from '../../ports/dinner-price-store.js';
import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { LibraryRecipe, RecipeLibrary } from '../../ports/recipe-library.js';
import { addDays, dateIn, daysBetween, weekStartOf, type IsoDate } from '../kernel/dates.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import { priceBookOf, weekCost, type PriceBook } from './pricing.js';
import { drawIndexes, seedOf } from './random.js';
import { median, toOre } from './statistics.js';
import { DINNERS_PER_WEEK, HOUSEHOLD_TYPES, portionsOf, RECIPES_DRAWN, type DinnerPriceMeasurement, type HouseholdType } from './types.js';

/** The figures are Norwegian: weeks and months follow the calendar in Oslo. */
export const DINNER_PRICE_TIME_ZONE = 'Europe/Oslo';

/** The ISO 8601 week holding `date`: `YYYY-Www` (the year of its Thursday) and its Monday. */
export function isoWeekOf(date: IsoDate): { week: string; weekStart: IsoDate } {
  const weekStart = weekStartOf(date);
  const thursday = addDays(weekStart, 3);
  const year = thursday.slice(0, 4);
  const n = Math.floor(daysBetween(`${year}-01-01`, thursday) / 7) + 1;
  return { week: `${year}-W${String(n).padStart(2, '0')}`, weekStart };
}

export interface WeekDraw {
  /** The drawn recipes' ids in draw order. */
  readonly drawn: readonly string[];
  /** The price of each fully priced week, in draw order (NOK, unrounded). */
  readonly weekPrices: readonly number[];
  readonly weeksDrawn: number;
  readonly weeksPriced: number;
  readonly medianWeekPrice: number | null;
  readonly coverage: number;
  readonly chains: number;
}

/**
 * One measurement, pure: `count` recipes drawn with replacement from `recipes` (in the order given) by the seeded
 * generator, cut in draw order into weeks of seven dinners (a rest shorter than a week is dropped), each week
 * priced for `portions` portions a day. The median is over the fully priced weeks, rounded to øre.
 */
export function drawAndPrice(input: { recipes: readonly LibraryRecipe[]; book: PriceBook; portions: number; seed: number; count?: number }): WeekDraw {
  const drawn = drawIndexes(input.seed, input.recipes.length, input.count ?? RECIPES_DRAWN).map((i) => input.recipes[i]!);
  const weeksDrawn = Math.floor(drawn.length / DINNERS_PER_WEEK);
  const weekPrices: number[] = [];
  const chains = new Set<string>();
  for (let w = 0; w < weeksDrawn; w++) {
    const priced = weekCost(input.book, drawn.slice(w * DINNERS_PER_WEEK, (w + 1) * DINNERS_PER_WEEK), input.portions);
    if (priced === null) continue;
    weekPrices.push(priced.cost);
    for (const c of priced.chains) chains.add(c);
  }
  const mid = median(weekPrices);
  return {
    drawn: drawn.map((r) => r.id),
    weekPrices,
    weeksDrawn,
    weeksPriced: weekPrices.length,
    medianWeekPrice: mid === null ? null : toOre(mid),
    coverage: weeksDrawn === 0 ? 0 : weekPrices.length / weeksDrawn,
    chains: chains.size,
  };
}

export interface DinnerPriceMeasureDeps {
  readonly recipeLibrary: RecipeLibrary;
  readonly foodTable: FoodTableStore;
  readonly dinnerPrices: DinnerPriceStore;
  readonly clock: Clock;
}

export interface MeasureOutcome {
  readonly week: string;
  /** Household types measured and recorded by this run. */
  readonly measured: readonly HouseholdType[];
  /** Household types whose week was measured before (the first measurement stands). */
  readonly alreadyMeasured: readonly HouseholdType[];
  /** True when the library holds no recipe: nothing can be drawn, nothing is recorded. */
  readonly noRecipes: boolean;
}

/**
 * The weekly measurement (the scheduled job): for each household type not yet measured in the current ISO week,
 * draw and price at today's list prices, and record it with its seed and recipe set. Idempotent per household
 * type and week, so the job may run every day: the first run of a week measures it.
 */
export async function measureDinnerPrices(deps: DinnerPriceMeasureDeps): Promise<MeasureOutcome> {
  const now = deps.clock.now();
  const { week, weekStart } = isoWeekOf(dateIn(DINNER_PRICE_TIME_ZONE, now));
  const alreadyMeasured: HouseholdType[] = [];
  const due: HouseholdType[] = [];
  for (const { type } of HOUSEHOLD_TYPES) ((await deps.dinnerPrices.measurementOf(type, week)) ? alreadyMeasured : due).push(type);
  if (due.length === 0) return { week, measured: [], alreadyMeasured, noRecipes: false };

  const version = await deps.recipeLibrary.version();
  // The port promises id order; sorted again here because the draw's repeatability hangs on it.
  const recipes = (await deps.recipeLibrary.all()).slice().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (recipes.length === 0) return { week, measured: [], alreadyMeasured, noRecipes: true };
  const keys = new Set<string>();
  for (const r of recipes) for (const l of r.ingredients) keys.add(l.foodKey).add(normalizeFoodKey(l.foodKey));
  const book = priceBookOf(await deps.foodTable.byFoodKeys([...keys]));
  const pricesSyncedAt = await deps.foodTable.lastSyncedAt();

  const measured: HouseholdType[] = [];
  for (const type of due) {
    const seed = seedOf(week, type);
    const d = drawAndPrice({ recipes, book, portions: portionsOf(type), seed });
    const m: DinnerPriceMeasurement = {
      householdType: type,
      week,
      weekStart,
      seed,
      recipeSetVersion: version,
      pricesSyncedAt,
      recipesDrawn: d.drawn.length,
      weeksDrawn: d.weeksDrawn,
      weeksPriced: d.weeksPriced,
      medianWeekPrice: d.medianWeekPrice,
      coverage: d.coverage,
      chains: d.chains,
      measuredAt: now,
    };
    ((await deps.dinnerPrices.recordMeasurement(m)) ? measured : alreadyMeasured).push(type);
  }
  return { week, measured, alreadyMeasured, noRecipes: false };
}
