import { avoidMatcher, type IngredientName } from '../kernel/avoids.js';
import type { IsoDate } from '../kernel/dates.js';
import { fnv1a32 } from '../kernel/seeded.js';

/**
 * Why a dish was proposed for a day (the web app says each in the household's language):
 * - AvoidsRespected: the day has guests' avoids, and nothing in the dish (bases included) breaks one;
 * - FitsCookingTime: the day leaves limited time to cook, and the dish is done within it;
 * - UsesPantry: it uses food in the pantry that should be eaten soon;
 * - NearUsualPrice: its estimated price per portion is within a fifth of the household's usual;
 * - FromLibrary: it comes from the shared recipe library (saving it adds it to the household's recipes);
 * what the household's own plans of the last weeks say of it (added to every pick they describe, so that a dish of
 * the household always says at least one thing, also on an ordinary day):
 * - Favourite: it was on the table at least FAVOURITE_TIMES times in those weeks (`timesEaten`);
 * - NotEatenSince: it was eaten in those weeks, but not lately (`lastEatenOn`);
 * - NotEatenInWeeks: a household recipe that was on no plan in those weeks;
 * (the last two are left off a dish that repeats this week: it is on the week already, and that says more);
 * and what was given up because nothing better fitted:
 * - Disliked: it holds something the household said it would rather not eat;
 * - EatenLately: it was on the table in the last two weeks;
 * - RepeatsThisWeek: it is already planned on another day of the week;
 * and, for an evening with little time, leftovers instead of cooking (core/plans/leftovers-planner.ts):
 * - Leftovers: the dish of an earlier day of the week, cooked for this day too (`leftoversOf` names that day).
 * and one of the household's dinner rules (core/plans/dinner-rules.ts):
 * - Rule: a rule put it there (a fixed dish, or a dish of a tag the week should have; the day names the rule).
 */
export const PICK_REASONS = [
  'AvoidsRespected',
  'FitsCookingTime',
  'UsesPantry',
  'NearUsualPrice',
  'FromLibrary',
  'Favourite',
  'NotEatenSince',
  'NotEatenInWeeks',
  'Disliked',
  'EatenLately',
  'RepeatsThisWeek',
  'Leftovers',
  'Rule',
] as const;

/** A dish on the household's plans at least this many times in the weeks the planner reads is a favourite. */
export const FAVOURITE_TIMES = 3;

/**
 * Why a day got no dish:
 * - NoRecipes: there is no candidate recipe at all;
 * - AvoidsRuleOutAll: every recipe breaks an avoid of the day's guests;
 * - NothingFitsCookingTime: no recipe is known to be done within the time the day leaves;
 * - NothingFitsBoth: the recipes that respect the avoids all take too long;
 * - DayClosed: the day was asked for, but nobody eats at home (EatingOut, Travel);
 * - RuleNotServed: every dish that fits the day is kept away by a Spacing rule (the day names it).
 */
export const EMPTY_REASONS = ['NoRecipes', 'AvoidsRuleOutAll', 'NothingFitsCookingTime', 'NothingFitsBoth', 'DayClosed', 'RuleNotServed'] as const;

export type PickReason = (typeof PICK_REASONS)[number];
export type EmptyReason = (typeof EMPTY_REASONS)[number];
export type SuggestionReason = PickReason | EmptyReason;

/** A recipe the planner may propose, read once for the whole week. */
export interface PlannerCandidate {
  /** A recipe of the household, or `library:{id}` for one of the shared library. */
  readonly id: string;
  readonly title: string;
  /** From start to table; null when the recipe does not say (then never on a day whose time is limited). */
  readonly minutes: number | null;
  /** Every ingredient the dish may put on the table, its bases' included (as the candidate gate judges them). */
  readonly ingredients: readonly IngredientName[];
  /** Estimated NOK per portion; null when not every line has a price. */
  readonly pricePerPortion: number | null;
  readonly disliked: boolean;
  readonly eatenLately: boolean;
  /** The newest day of the weeks read (before this week) that had it on the plan; null: none did. */
  readonly lastEatenOn: IsoDate | null;
  /** How many days of those weeks had it on the plan. */
  readonly timesEaten: number;
  readonly fromLibrary: boolean;
}

/** A day to fill. */
export interface PlannerDay {
  readonly date: IsoDate;
  /** The guests' avoids that bind the whole table that day: hard. */
  readonly avoids: readonly string[];
  /** The minutes the day leaves to cook (its events' and the calendar's tightest); null: no limit known. */
  readonly limitMinutes: number | null;
}

export interface PlannerInput {
  readonly days: readonly PlannerDay[];
  readonly candidates: readonly PlannerCandidate[];
  /** Dishes the week already holds on other days (planned, or shown and kept): not proposed again when avoidable. */
  readonly taken: readonly string[];
  /** Food keys of pantry rows losing confidence (the UseSoon section) → their names. */
  readonly useSoon: ReadonlyMap<string, string>;
  /** The household's usual price per portion; null when not known. */
  readonly usualPricePerPortion: number | null;
  readonly seed: number;
}

export interface PlannedDay {
  readonly date: IsoDate;
  readonly pick: PlannerCandidate | null;
  readonly reasons: readonly SuggestionReason[];
  /** The pantry foods that should be eaten soon which the dish uses, by name. */
  readonly pantryFoods: readonly string[];
  /** The earlier day whose dish this day eats as leftovers (reason Leftovers); left out: cooked on the day. */
  readonly leftoversOf?: IsoDate | undefined;
}

/** Within this share of the usual price per portion a dish is "near the usual". */
export const NEAR_USUAL_SHARE = 0.2;

/** A number in [0, 1) from two 32-bit values: the same pair always gives the same number (murmur3's finaliser). */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** The day's own seed: another seed for one day changes that day's draw only. */
export const daySeed = (seed: number, date: IsoDate): number => fnv1a32(`${seed >>> 0}/${date}`);

export const fitsTime = (c: Pick<PlannerCandidate, 'minutes'>, limit: number | null): boolean => limit === null || (c.minutes !== null && c.minutes <= limit);

/**
 * The week's proposal, one day after the other, the most constrained first. For each day, the candidates that pass the hard
 * rules (no ingredient breaks the day's avoids, through the one matcher in core/kernel/avoids.ts; done within the
 * day's cooking time) are ranked: first by what is given up (a repeat in the week is worse than a disliked food,
 * which is worse than a dish eaten lately), then by score (pantry food to use soon, a price near the usual, and
 * a seeded draw that differs by day), then by id, so the answer never depends on the candidates' order. A day
 * with no candidate gets no dish and the reason.
 */
export function planWeek(input: PlannerInput): PlannedDay[] {
  const gates = new Map<string, (c: PlannerCandidate) => boolean>();
  const gateOf = (avoids: readonly string[]) => {
    const key = avoids.map((a) => a.toLowerCase()).join('\u0000');
    let gate = gates.get(key);
    if (!gate) {
      gate = avoids.length === 0 ? () => true : avoidGate(avoids);
      gates.set(key, gate);
    }
    return gate;
  };
  const idHash = new Map(input.candidates.map((c) => [c.id, fnv1a32(c.id)]));
  const pantryOf = new Map<string, string[]>();
  const pantryFoods = (c: PlannerCandidate) => {
    let foods = pantryOf.get(c.id);
    if (!foods) {
      foods = [...new Set(c.ingredients.map((i) => input.useSoon.get(i.foodKey)).filter((n): n is string => n !== undefined))];
      pantryOf.set(c.id, foods);
    }
    return foods;
  };
  const usual = input.usualPricePerPortion;
  const priceFit = (c: PlannerCandidate) => (usual === null || usual <= 0 || c.pricePerPortion === null ? null : Math.abs(c.pricePerPortion - usual) / usual);
  const taken = new Set(input.taken);
  // The most constrained days choose first (fewest candidates past the hard rules, then by date), so that an easy
  // Monday never takes the one dish a short Tuesday could have; the answer is still given in date order.
  const eligible = (day: PlannerDay) => {
    const gate = gateOf(day.avoids);
    return input.candidates.reduce((n, c) => n + (fitsTime(c, day.limitMinutes) && gate(c) ? 1 : 0), 0);
  };
  const counts = new Map(input.days.map((d) => [d.date, eligible(d)]));
  const order = [...input.days].sort((a, b) => counts.get(a.date)! - counts.get(b.date)! || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const out: PlannedDay[] = [];
  for (const day of order) {
    const gate = gateOf(day.avoids);
    const seed = daySeed(input.seed, day.date);
    let best: { c: PlannerCandidate; tier: number; score: number } | null = null;
    let passAvoids = 0;
    let passTime = 0;
    for (const c of input.candidates) {
      const timeOk = fitsTime(c, day.limitMinutes);
      const avoidsOk = gate(c);
      if (timeOk) passTime++;
      if (avoidsOk) passAvoids++;
      if (!timeOk || !avoidsOk) continue;
      const tier = (taken.has(c.id) ? 4 : 0) + (c.disliked ? 2 : 0) + (c.eatenLately ? 1 : 0);
      if (best !== null && tier > best.tier) continue;
      const fit = priceFit(c);
      const score = 2 * Math.min(pantryFoods(c).length, 3) + (fit === null ? 0.4 : 1 - Math.min(fit, 1)) + 1.5 * mix(seed, idHash.get(c.id)!);
      if (best === null || tier < best.tier || score > best.score || (score === best.score && c.id < best.c.id)) best = { c, tier, score };
    }
    if (best === null) {
      const why: EmptyReason =
        input.candidates.length === 0 ? 'NoRecipes' : passAvoids === 0 ? 'AvoidsRuleOutAll' : passTime === 0 ? 'NothingFitsCookingTime' : 'NothingFitsBoth';
      out.push({ date: day.date, pick: null, reasons: [why], pantryFoods: [] });
      continue;
    }
    const c = best.c;
    const reasons: SuggestionReason[] = [];
    if (day.avoids.length > 0) reasons.push('AvoidsRespected');
    if (day.limitMinutes !== null) reasons.push('FitsCookingTime');
    const foods = pantryFoods(c);
    if (foods.length > 0) reasons.push('UsesPantry');
    const fit = priceFit(c);
    if (fit !== null && fit <= NEAR_USUAL_SHARE) reasons.push('NearUsualPrice');
    if (c.fromLibrary) reasons.push('FromLibrary');
    reasons.push(...historyReasons(c, taken.has(c.id)));
    if (taken.has(c.id)) reasons.push('RepeatsThisWeek');
    if (c.disliked) reasons.push('Disliked');
    if (c.eatenLately) reasons.push('EatenLately');
    taken.add(c.id);
    out.push({ date: day.date, pick: c, reasons, pantryFoods: foods });
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** What the household's plans of the last weeks say of a pick (see PICK_REASONS). */
function historyReasons(c: PlannerCandidate, repeats: boolean): PickReason[] {
  const out: PickReason[] = [];
  if (c.timesEaten >= FAVOURITE_TIMES) out.push('Favourite');
  if (repeats || c.eatenLately) return out;
  if (c.lastEatenOn !== null) out.push('NotEatenSince');
  else if (!c.fromLibrary) out.push('NotEatenInWeeks');
  return out;
}

/**
 * Whether a candidate passes a list of avoids: the matcher is built once per list, each distinct ingredient is
 * judged once, and each candidate once (a thousand candidates share most of their ingredients).
 */
export function avoidGate(avoids: readonly string[]): (c: PlannerCandidate) => boolean {
  const breaks = avoidMatcher(avoids);
  const byIngredient = new Map<string, boolean>();
  const byCandidate = new Map<string, boolean>();
  return (c) => {
    const known = byCandidate.get(c.id);
    if (known !== undefined) return known;
    let ok = true;
    for (const i of c.ingredients) {
      const key = `${i.displayName}\u0000${i.foodKey}`;
      let bad = byIngredient.get(key);
      if (bad === undefined) {
        bad = breaks(i) !== null;
        byIngredient.set(key, bad);
      }
      if (bad) {
        ok = false;
        break;
      }
    }
    byCandidate.set(c.id, ok);
    return ok;
  };
}
