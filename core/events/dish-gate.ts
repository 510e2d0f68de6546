import { avoidsOfDay, dishConflict } from '../plans/avoid-gate.js';
import { recipesReaching } from '../recipes/reaching.js';
import { weekStartOf, type IsoDate } from '../shared/dates.js';
import type { DishConflict } from '../shared/errors.js';
import type { HouseholdId } from '../shared/ids.js';
import type { EventDeps } from './deps.js';
import type { MealEvent } from './types.js';

/** A planned dish that a change of events makes unservable: the day to clear when the change replaces dishes. */
export interface BrokenDish extends DishConflict {
  readonly planId: string;
  readonly portionsOverride: number | null;
  readonly note: string | null;
}

/**
 * The dishes already planned that the change would make unservable: for each day an added event with avoids
 * lands on, the day's avoids once the change is made (the day's events, less those the change removes, plus those
 * it adds) against that day's dish, through the one candidate gate (core/plans/avoid-gate.ts). An event without
 * avoids, and removing one, can break no dish, so most changes read nothing here.
 */
export async function dishesBrokenBy(deps: EventDeps, householdId: HouseholdId, added: readonly MealEvent[], removedIds: readonly string[]): Promise<BrokenDish[]> {
  const dates = [...new Set(added.filter((e) => avoidsOfDay([e]).length > 0).map((e) => e.date))].sort();
  if (dates.length === 0) return [];
  const [first, last] = [dates[0]!, dates[dates.length - 1]!];
  const [existing, plans] = await Promise.all([deps.events.eventsBetween(householdId, first, last), deps.plans.weeksBetween(householdId, weekStartOf(first), weekStartOf(last))]);
  const dayOf = new Map(plans.flatMap((p) => p.days.filter((d) => d.recipeId !== null && dates.includes(d.date)).map((d) => [d.date, { planId: p.id, day: d }] as const)));
  if (dayOf.size === 0) return [];
  const recipes = await recipesReaching(deps, householdId, [...new Set([...dayOf.values()].map((x) => x.day.recipeId!))]);
  const gone = new Set([...removedIds, ...added.map((e) => e.id)]);
  const broken: BrokenDish[] = [];
  for (const date of dates) {
    const planned = dayOf.get(date);
    const recipe = planned ? recipes.get(planned.day.recipeId!) : undefined;
    if (!planned || !recipe) continue;
    const events = [...existing.filter((e) => e.date === date && !gone.has(e.id)), ...added.filter((e) => e.date === date)];
    const conflict = dishConflict(recipe, recipes, avoidsOfDay(events), date as IsoDate);
    if (conflict) broken.push({ ...conflict, planId: planned.planId, portionsOverride: planned.day.portionsOverride, note: planned.day.note });
  }
  return broken;
}

/** The conflict as the refusal names it (the first broken day). */
export const conflictOf = (b: BrokenDish): DishConflict => ({ date: b.date, recipeId: b.recipeId, recipeTitle: b.recipeTitle, avoid: b.avoid, ingredient: b.ingredient });

/** replaceDish: each broken day loses its dish and keeps its portions override and note. */
export async function clearDishes(deps: EventDeps, householdId: HouseholdId, broken: readonly BrokenDish[], at: Date): Promise<void> {
  for (const b of broken) await deps.plans.setDay(householdId, b.planId, b.date, { recipeId: null, portionsOverride: b.portionsOverride, note: b.note }, at);
}
