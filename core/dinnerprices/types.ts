import { GUEST_WEIGHT } from '../events/portions.js';

/**
 * The household types the dinner prices are published for. Portions follow the service's guest weights (an
 * adult eats one portion, a child half of one): a family of two adults and two children eats three.
 */
export const HOUSEHOLD_TYPES = [
  { type: 'single', adults: 1, children: 0 },
  { type: 'couple', adults: 2, children: 0 },
  { type: 'family', adults: 2, children: 2 },
] as const;

export type HouseholdType = (typeof HOUSEHOLD_TYPES)[number]['type'];

export const portionsOf = (type: HouseholdType): number => {
  const t = HOUSEHOLD_TYPES.find((h) => h.type === type)!;
  return t.adults * GUEST_WEIGHT.Adult + t.children * GUEST_WEIGHT.Child;
};

/** Recipes drawn per measurement, and dinners per week (the draws are cut into weeks in order; a rest is dropped). */
export const RECIPES_DRAWN = 1000;
export const DINNERS_PER_WEEK = 7;

/** What the public files name as the source of the figures. */
export const DINNER_PRICE_SOURCE = 'food table chain list prices';

/** One weekly measurement of one household type, as recorded (one per type and ISO week; the first stands). */
export interface DinnerPriceMeasurement {
  readonly householdType: HouseholdType;
  /** ISO 8601 week, `YYYY-Www` (Norwegian calendar). */
  readonly week: string;
  /** The Monday of that week, `YYYY-MM-DD`: the measurement counts for this day's month. */
  readonly weekStart: string;
  /** The PRNG seed (uint32) the recipes were drawn with: with the recipe set, the draw can be repeated. */
  readonly seed: number;
  /** RecipeLibrary.version() at the time of the draw. */
  readonly recipeSetVersion: string;
  /** When the food table the prices came from was synced; null when it never was. */
  readonly pricesSyncedAt: Date | null;
  readonly recipesDrawn: number;
  readonly weeksDrawn: number;
  /** Drawn weeks with every line of every dinner priced. */
  readonly weeksPriced: number;
  /** NOK, rounded to øre: the median price of the fully priced weeks; null when none was. */
  readonly medianWeekPrice: number | null;
  /** weeksPriced ÷ weeksDrawn, 0 when nothing was drawn. */
  readonly coverage: number;
  /** How many chains' list prices the fully priced weeks were priced with. */
  readonly chains: number;
  readonly measuredAt: Date;
}

/** One row of the publication: a household type in a month that has ended. */
export interface PublishedMonth {
  /** `YYYY-MM` */
  readonly month: string;
  readonly householdType: HouseholdType;
  readonly medianWeekPrice: number;
  readonly p10WeekPrice: number;
  readonly p90WeekPrice: number;
  readonly pricePerPortion: number;
  readonly coverage: number;
  readonly chains: number;
  readonly weeksMeasured: number;
  /** The recipe set of the month's newest measurement. */
  readonly recipeSetVersion: string;
}

/** The public files as built by the publication job: served as stored. */
export interface DinnerPricePublication {
  readonly generatedAt: Date;
  /** The DinnerPricesPublic document. */
  readonly json: string;
  /** text/csv, RFC 4180: header row, then one row per household type and month. */
  readonly csv: string;
}
