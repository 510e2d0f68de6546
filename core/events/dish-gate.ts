import type { PlanDayRow } from '../../ports/plan-store.js';
import { avoidsOfDay, dishConflict } from './avoid-gate.js';
import { recipesReaching } from '../recipes/reaching.js';
import { addDays, weekStartOf, type IsoDate } from '../kernel/dates.js';
import type { DishConflict, ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { EventDeps } from './deps.js';
import type { MealEvent } from './types.js';

/** A planned dish that a change of events makes unservable, and the plan day to clear when the change replaces dishes. */
export interface BrokenDish {
  readonly conflict: DishConflict;
  readonly planId: string;
  readonly day: PlanDayRow;
}

/** What a change does to a dish its avoids break: refuse (avoid-conflict), unless `replaceDish` clears the dish. */
export interface DishOptions {
  readonly replaceDish?: boolean | undefined;
}

/**
 * The candidate gate for a change of events, before it is written: the dishes already planned that it would make
 * unservable, for each day an added event with avoids lands on (the day's avoids once the change is made: its
 * events, less those the change removes, plus those it adds, against that day's dish, through
 * core/events/avoid-gate.ts). Any such dish refuses the change (avoid-conflict, naming the first), unless
 * `replaceDish`: then the days to clear once the change is written (`clearDishes`). An event without avoids, and
 * removing one, can break no dish, so most changes read nothing here.
 */
export async function dishesToClear(
  deps: EventDeps,
  householdId: HouseholdId,
  added: readonly MealEvent[],
  removedIds: readonly string[],
  options: DishOptions,
): Promise<Result<BrokenDish[], ErrorOf<'avoid-conflict'>>> {
  const broken = await dishesBrokenBy(deps, householdId, added, removedIds);
  const first = broken[0];
  return first && !options.replaceDish ? fail({ type: 'avoid-conflict', ...first.conflict }) : ok(broken);
}

async function dishesBrokenBy(deps: EventDeps, householdId: HouseholdId, added: readonly MealEvent[], removedIds: readonly string[]): Promise<BrokenDish[]> {
  const dates = [...new Set(added.filter((e) => avoidsOfDay([e]).length > 0).map((e) => e.date))].sort();
  if (dates.length === 0) return [];
  const [first, last] = [dates[0]!, dates[dates.length - 1]!];
  // The week before too: a day may eat the leftovers of a dish cooked then (core/plans/leftovers.ts), and is judged by that dish.
  const [existing, plans] = await Promise.all([deps.events.eventsBetween(householdId, first, last), deps.plans.weeksBetween(householdId, weekStartOf(addDays(first, -7)), weekStartOf(last))]);
  const rows = new Map(plans.flatMap((p) => p.days.map((d) => [d.date, d] as const)));
  const dishOf = (d: PlanDayRow) => d.recipeId ?? (d.leftoversOf !== null ? (rows.get(d.leftoversOf)?.recipeId ?? null) : null);
  const dayOf = new Map(plans.flatMap((p) => p.days.filter((d) => dishOf(d) !== null && dates.includes(d.date)).map((d) => [d.date, { planId: p.id, day: d, recipeId: dishOf(d)! }] as const)));
  if (dayOf.size === 0) return [];
  const recipes = await recipesReaching(deps, householdId, [...new Set([...dayOf.values()].map((x) => x.recipeId))]);
  const gone = new Set([...removedIds, ...added.map((e) => e.id)]);
  const broken: BrokenDish[] = [];
  for (const date of dates) {
    const planned = dayOf.get(date);
    const recipe = planned ? recipes.get(planned.recipeId) : undefined;
    if (!planned || !recipe) continue;
    const events = [...existing.filter((e) => e.date === date && !gone.has(e.id)), ...added.filter((e) => e.date === date)];
    const conflict = dishConflict(recipe, recipes, avoidsOfDay(events), date as IsoDate);
    if (conflict) broken.push({ conflict, planId: planned.planId, day: planned.day });
  }
  return broken;
}

/** replaceDish: each broken day loses its dish (or its leftovers) and keeps its portions override and note. */
export async function clearDishes(deps: EventDeps, householdId: HouseholdId, broken: readonly BrokenDish[], at: Date): Promise<void> {
  for (const b of broken) {
    if (b.day.recipeId === null) await deps.plans.setLeftovers(householdId, b.planId, b.day.date, null, at);
    else await deps.plans.setDay(householdId, b.planId, b.day.date, { recipeId: null, portionsOverride: b.day.portionsOverride, note: b.day.note }, at);
  }
}
