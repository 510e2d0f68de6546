import type { MealEventReader } from '../../ports/meal-event-store.js';
import type { PlanDayRow, PlanRow, PlanStore } from '../../ports/plan-store.js';
import type { HouseholdId } from '../kernel/ids.js';
import { deriveDay } from '../events/portions.js';
import type { MealEvent } from '../events/types.js';
import type { HouseholdWithMembers } from '../households/types.js';
import { addDays, daysBetween, type IsoDate } from '../kernel/dates.js';

/**
 * Planned leftovers ("cook once, eat twice"): a plan day may eat the leftovers of an earlier planned day, of the
 * same or the previous week. The later day then has no dish of its own (it cooks nothing and buys nothing); the
 * cooking day is made for its own portions and the later day's (its members, guests and absences, or its
 * override), and so is the shopping list. Leftovers keep the household's leftoversKeepDays (1 to 7, one rule for
 * every dish). A change of the cooking day's dish (another dish, none, or a move) clears its leftovers (the
 * PlanStore does so in the same write): they never silently become another dish's.
 *
 * Why leftovers may not be set:
 * - not-later: the day is not after the cooking day;
 * - kept-too-long: the day is more than leftoversKeepDays after the cooking day;
 * - no-dish: the cooking day has no dish of its own (none, or it is leftovers itself) or nobody eats at home then;
 * - day-closed: nobody eats at home on the later day (EatingOut, Travel).
 * A dish that breaks an avoid of the later day's guests is refused as setting it there would be (avoid-conflict).
 */
export const LEFTOVERS_REFUSALS = ['not-later', 'kept-too-long', 'no-dish', 'day-closed'] as const;
export type LeftoversRefusal = (typeof LEFTOVERS_REFUSALS)[number];

/** What a cooking day's leftovers are judged by: its date and dish, and whether it is cooked at home. */
export interface CookingDay {
  readonly date: IsoDate;
  readonly recipeId: string | null;
  readonly cookedAtHome: boolean;
}

/** The rules of leftovers that need no recipe: the first that the pair breaks, or null. */
export function leftoversRefusal(cook: CookingDay | undefined, day: { readonly date: IsoDate; readonly cookedAtHome: boolean }, keepDays: number, cookDate: IsoDate): LeftoversRefusal | null {
  if (!(cookDate < day.date)) return 'not-later';
  if (daysBetween(cookDate, day.date) > keepDays) return 'kept-too-long';
  if (!cook || cook.recipeId === null || !cook.cookedAtHome) return 'no-dish';
  if (!day.cookedAtHome) return 'day-closed';
  return null;
}

/** A day's leftovers as the plan shows them. */
export interface LeftoversView {
  /** The cooking day this day eats the leftovers of, and its dish; null: the day is not leftovers (or the cooking day has no dish now). */
  readonly leftovers: { readonly of: IsoDate; readonly recipeId: string; readonly recipeTitle: string } | null;
  /** The days that eat this day's leftovers (those cooked at home), each with its portions: the day is cooked for them too. */
  readonly leftoversFor: readonly { readonly date: IsoDate; readonly portions: number }[];
}

/** A day's own portions: its override on a day cooked at home, else derived. */
const ownPortions = (household: HouseholdWithMembers, row: PlanDayRow, events: readonly MealEvent[]) => {
  const derived = deriveDay(household.members, events);
  return { portions: derived.cookedAtHome && row.portionsOverride !== null ? row.portionsOverride : derived.portions, cookedAtHome: derived.cookedAtHome };
};

/**
 * The plans' day views with their leftovers: each day of leftovers names its cooking day's dish, and each cooking
 * day grows by the portions of the days that eat its leftovers. `rows` are the plans' rows and their neighbour weeks'
 * (the previous week may cook for this one, the next may eat this one's leftovers); `eventsOn` gives any of their days' events.
 */
export function withLeftovers<D extends { readonly date: IsoDate; readonly recipeId: string | null; readonly cookedAtHome: boolean; readonly portions: number }>(
  household: HouseholdWithMembers,
  days: readonly D[],
  rows: readonly PlanRow[],
  eventsOn: (date: IsoDate) => readonly MealEvent[],
  titles: Readonly<Record<string, string>>,
): (D & LeftoversView)[] {
  const byDate = new Map(rows.flatMap((p) => p.days.map((d) => [d.date, d] as const)));
  const eaters = new Map<IsoDate, { date: IsoDate; portions: number }[]>();
  for (const row of byDate.values()) {
    if (row.leftoversOf === null) continue;
    const cook = byDate.get(row.leftoversOf);
    if (!cook || cook.recipeId === null) continue;
    const own = ownPortions(household, row, eventsOn(row.date));
    if (own.cookedAtHome) eaters.set(cook.date, [...(eaters.get(cook.date) ?? []), { date: row.date, portions: own.portions }].sort((a, b) => (a.date < b.date ? -1 : 1)));
  }
  return days.map((d) => {
    const row = byDate.get(d.date);
    const cook = row?.leftoversOf ? byDate.get(row.leftoversOf) : undefined;
    const title = cook?.recipeId ? titles[cook.recipeId] : undefined;
    const leftoversFor = d.cookedAtHome && d.recipeId !== null ? (eaters.get(d.date) ?? []) : [];
    return {
      ...d,
      portions: d.portions + leftoversFor.reduce((n, e) => n + e.portions, 0),
      leftovers: cook && cook.recipeId !== null && title !== undefined ? { of: cook.date, recipeId: cook.recipeId, recipeTitle: title } : null,
      leftoversFor,
    };
  });
}

/** The weeks around `plans` whose days leftovers may link to theirs: the week before and the week after. */
export const neighbourWeeks = (plans: readonly PlanRow[]): { from: IsoDate; to: IsoDate } => ({
  from: addDays(plans[0]!.weekStart, -7),
  to: addDays(plans[plans.length - 1]!.weekStart, 7),
});


/**
 * The rows a week's view needs for its leftovers when only its own plan was read (a shopping list): the plan, and
 * the next week's when a day of it eats leftovers of this week, with that week's events; nothing else is read.
 */
export async function withEatersAfter(
  deps: { readonly plans: Pick<PlanStore, 'byWeek'>; readonly events: MealEventReader },
  householdId: HouseholdId,
  plan: PlanRow,
): Promise<{ readonly rows: readonly PlanRow[]; readonly events: readonly MealEvent[] }> {
  const next = await deps.plans.byWeek(householdId, addDays(plan.weekStart, 7));
  const dates = new Set(plan.days.map((d) => d.date));
  if (!next || !next.days.some((d) => d.leftoversOf !== null && dates.has(d.leftoversOf))) return { rows: [plan], events: [] };
  return { rows: [plan, next], events: await deps.events.eventsBetween(householdId, next.weekStart, addDays(next.weekStart, 6)) };
}
