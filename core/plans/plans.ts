import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { MealEventReader } from '../../ports/meal-event-store.js';
import type { PlanRow, PlanStore } from '../../ports/plan-store.js';
import type { Account } from '../accounts/types.js';
import type { MealEvent } from '../events/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { HouseholdWithMembers } from '../households/types.js';
import { addDays, dateIn, daysBetween, weekDates, weekStartOf, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { deriveDay, type DerivedDay } from '../events/portions.js';
import { avoidsOfDay, dishConflict } from '../events/avoid-gate.js';
import { servingNotesOf } from './serving-notes.js';
import { recipesReaching } from '../recipes/reaching.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import { neighbourWeeks, withLeftovers, type LeftoversView } from './leftovers-model.js';
import type { DinnerRuleStore } from '../../ports/dinner-rule-store.js';
import { openWithFixedDinners } from './dinner-rule-planner.js';

export interface PlanDeps {
  households: HouseholdStore;
  plans: PlanStore;
  events: MealEventReader;
  recipes: { titlesOf(householdId: HouseholdId, recipeIds: readonly string[]): Promise<Record<string, string>> } & Pick<RecipeStore, 'byIds'>;
  ids: IdGenerator;
  clock: Clock;
  /** The household's dinner rules: a week made here opens with its fixed dinners. */
  dinnerRules: DinnerRuleStore;
}

export interface PlanDayView extends DerivedDay, LeftoversView {
  readonly id: string;
  readonly date: IsoDate;
  readonly recipeId: string | null;
  readonly recipeTitle: string | null;
  readonly portionsOverride: number | null;
  readonly note: string | null;
  /** The guests' avoids and the day's dietary notes, for whoever serves (core/plans/serving-notes.ts). */
  readonly servingNotes: readonly string[];
  /** The earlier day whose leftovers this day eats (the row's; `leftovers` names the dish). */
  readonly leftoversOf: IsoDate | null;
}

export interface PlanView {
  readonly id: string;
  readonly householdId: HouseholdId;
  readonly weekStart: IsoDate;
  readonly days: readonly PlanDayView[];
  readonly updatedAt: Date;
}

/** The longest range GET plans answers, in days. */
export const PLAN_RANGE_MAX_DAYS = 366;

type Denied = ErrorOf<'household-not-found' | 'adults-only'>;

/** A plan with each day's effective portions, derived from the members and the week's events as they are now. */
async function view(deps: PlanDeps, household: HouseholdWithMembers, plans: readonly PlanRow[]): Promise<PlanView[]> {
  if (plans.length === 0) return [];
  const from = plans[0]!.weekStart;
  const around = neighbourWeeks(plans);
  // The weeks around: leftovers link a day to one of the week before or after.
  const [events, weeks] = await Promise.all([deps.events.eventsBetween(household.id, from, addDays(around.to, 6)), deps.plans.weeksBetween(household.id, around.from, around.to)]);
  const rows = [...weeks.filter((w) => !plans.some((p) => p.id === w.id)), ...plans];
  const titles = await deps.recipes.titlesOf(household.id, [...new Set(rows.flatMap((p) => p.days.map((d) => d.recipeId).filter((r): r is string => r !== null)))]);
  return viewsOf(household, plans, events, titles, rows);
}

/**
 * The views of plans given their weeks' events and the titles of the household's recipes among their dishes; with
 * `rows` (the plans and their neighbour weeks, whose events `events` then holds too) each day's leftovers as well.
 */
export function viewsOf(household: HouseholdWithMembers, plans: readonly PlanRow[], events: readonly MealEvent[], titles: Readonly<Record<string, string>>, rows: readonly PlanRow[] = plans): PlanView[] {
  const byDate = new Map<IsoDate, MealEvent[]>();
  for (const e of events) byDate.set(e.date, [...(byDate.get(e.date) ?? []), e]);
  return plans.map((plan) => ({
    id: plan.id,
    householdId: plan.householdId,
    weekStart: plan.weekStart,
    updatedAt: plan.updatedAt,
    days: withLeftovers(household, plan.days.map((d) => {
      const events = byDate.get(d.date) ?? [];
      const derived = deriveDay(household.members, events);
      const title = d.recipeId !== null ? (titles[d.recipeId] ?? null) : null;
      return {
        ...derived,
        // An override sets the portions of a day that is cooked at home; a closed day needs none.
        portions: derived.cookedAtHome && d.portionsOverride !== null ? d.portionsOverride : derived.portions,
        id: d.id,
        date: d.date,
        recipeId: title !== null ? d.recipeId : null,
        recipeTitle: title,
        portionsOverride: d.portionsOverride,
        note: d.note,
        servingNotes: servingNotesOf(events, household.members, household.language),
        leftoversOf: d.leftoversOf,
      };
    }), rows, (date) => byDate.get(date) ?? [], titles),
  }));
}

async function household(deps: PlanDeps, householdId: HouseholdId): Promise<Result<HouseholdWithMembers, ErrorOf<'household-not-found'>>> {
  const h = await deps.households.byId(householdId);
  return h ? ok(h) : fail({ type: 'household-not-found' });
}

/**
 * Get-or-create the plan of the week holding `date`; retry-safe (the same plan every time). The call that makes the
 * plan puts the household's fixed dinners in it (core/plans/dinner-rule-planner.ts openWithFixedDinners).
 */
export async function ensureWeekPlan(deps: PlanDeps, caller: Account, householdId: HouseholdId, date: IsoDate): Promise<Result<PlanView, Denied>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const h = await household(deps, householdId);
  if (!h.ok) return h;
  const plan = await openWeekPlan(deps, h.value, weekStartOf(date));
  return ok((await view(deps, h.value, [plan]))[0]!);
}

/**
 * The plan of the week starting `weekStart`, made when there is none yet, whoever makes it (the week screen, a recipe
 * added to a week's list, a trip closing into next week): a plan made here opens with the household's fixed dinners.
 */
export async function openWeekPlan(deps: PlanDeps, household: HouseholdWithMembers, weekStart: IsoDate): Promise<PlanRow> {
  const planId = deps.ids.newId();
  const got = await deps.plans.getOrCreate(household.id, weekStart, { planId, dayIds: weekDates(weekStart).map(() => deps.ids.newId()), at: deps.clock.now() });
  return got.id === planId ? openWithFixedDinners(deps, household, got) : got;
}

export async function getPlan(deps: PlanDeps, caller: Account, householdId: HouseholdId, planId: string): Promise<Result<PlanView, ErrorOf<'household-not-found' | 'plan-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const [h, plan] = await Promise.all([household(deps, householdId), deps.plans.byId(householdId, planId)]);
  if (!h.ok) return h;
  if (!plan) return fail({ type: 'plan-not-found' });
  return ok((await view(deps, h.value, [plan]))[0]!);
}

/** Days GET plans covers from `from` when `to` is not given. */
export const PLAN_RANGE_DEFAULT_DAYS = 27;

/**
 * Plans of the weeks overlapping [from, to]; `from` defaults to today in the household's time zone, `to` to four
 * weeks on. Only weeks that have a plan are answered.
 */
export async function listPlans(
  deps: PlanDeps,
  caller: Account,
  householdId: HouseholdId,
  range: { from?: IsoDate | undefined; to?: IsoDate | undefined },
): Promise<Result<PlanView[], ErrorOf<'household-not-found' | 'plan-range-invalid'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const h = await household(deps, householdId);
  if (!h.ok) return h;
  const from = range.from ?? dateIn(h.value.timeZoneId, deps.clock.now());
  const to = range.to ?? addDays(from, PLAN_RANGE_DEFAULT_DAYS);
  const span = daysBetween(from, to);
  if (span < 0 || span > PLAN_RANGE_MAX_DAYS) return fail({ type: 'plan-range-invalid' });
  return ok(await view(deps, h.value, await deps.plans.weeksBetween(householdId, weekStartOf(from), weekStartOf(to))));
}

/**
 * Sets a day's dish (a recipe of the household, or none), portions (null: derived) and note. A dish that breaks an
 * avoid of the day's guests (through any of its ingredients or its bases') is refused: `avoid-conflict`.
 */
export async function setPlanDay(
  deps: PlanDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  date: IsoDate,
  day: { recipeId: string | null; portions: number | null; note: string | null },
): Promise<Result<PlanDayView, Denied | ErrorOf<'plan-not-found' | 'date-outside-week' | 'recipe-not-found' | 'avoid-conflict'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const plan = await deps.plans.byId(householdId, planId);
  if (!plan) return fail({ type: 'plan-not-found' });
  if (!plan.days.some((d) => d.date === date)) return fail({ type: 'date-outside-week' });
  if (day.recipeId !== null) {
    const [recipes, events] = await Promise.all([recipesReaching(deps, householdId, [day.recipeId]), deps.events.eventsBetween(householdId, date, date)]);
    const recipe = recipes.get(day.recipeId);
    if (!recipe) return fail({ type: 'recipe-not-found' });
    const conflict = dishConflict(recipe, recipes, avoidsOfDay(events), date);
    if (conflict) return fail({ type: 'avoid-conflict', ...conflict });
  }
  const saved = await deps.plans.setDay(householdId, planId, date, { recipeId: day.recipeId, portionsOverride: day.portions, note: day.note }, deps.clock.now());
  if (!saved) return fail({ type: 'plan-not-found' });
  const h = await household(deps, householdId);
  if (!h.ok) return h;
  const updated = await deps.plans.byId(householdId, planId);
  const views = await view(deps, h.value, [updated ?? plan]);
  return ok(views[0]!.days.find((d) => d.date === date)!);
}

/** The day has no dish: recipe, portions override and note are cleared. */
export async function clearPlanDay(
  deps: PlanDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  date: IsoDate,
): Promise<Result<void, Denied | ErrorOf<'plan-not-found' | 'date-outside-week' | 'recipe-not-found' | 'avoid-conflict'>>> {
  const result = await setPlanDay(deps, caller, householdId, planId, date, { recipeId: null, portions: null, note: null });
  return result.ok ? ok(undefined) : result;
}

/**
 * POST plans/{planId}/days/{date}/move (adults): the day's dish goes to `to`, and `to`'s dish, when it has one, comes
 * here (a swap), in one write. Each day keeps its portions override and note: they belong to the evening. Both
 * dishes are checked against the avoids of their new day first (avoid-conflict, nothing written). Moving a dish to
 * its own day changes nothing.
 */
export async function moveDish(
  deps: PlanDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  date: IsoDate,
  to: IsoDate,
): Promise<Result<PlanView, Denied | ErrorOf<'plan-not-found' | 'date-outside-week' | 'recipe-not-found' | 'avoid-conflict' | 'no-dish-to-move'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const [h, plan] = await Promise.all([household(deps, householdId), deps.plans.byId(householdId, planId)]);
  if (!h.ok) return h;
  if (!plan) return fail({ type: 'plan-not-found' });
  const from = plan.days.find((d) => d.date === date);
  const into = plan.days.find((d) => d.date === to);
  if (!from || !into) return fail({ type: 'date-outside-week' });
  if (from.recipeId === null) return fail({ type: 'no-dish-to-move' });
  if (date !== to) {
    const [recipes, events] = await Promise.all([
      recipesReaching(deps, householdId, [from.recipeId, ...(into.recipeId !== null ? [into.recipeId] : [])]),
      deps.events.eventsBetween(householdId, date < to ? date : to, date < to ? to : date),
    ]);
    const avoidsOn = (d: IsoDate) => avoidsOfDay(events.filter((e) => e.date === d));
    for (const [recipeId, day] of [[from.recipeId, to], [into.recipeId, date]] as const) {
      if (recipeId === null) continue;
      const recipe = recipes.get(recipeId);
      if (!recipe) return fail({ type: 'recipe-not-found' });
      const conflict = dishConflict(recipe, recipes, avoidsOn(day), day);
      if (conflict) return fail({ type: 'avoid-conflict', ...conflict });
    }
    const written = await deps.plans.setDishes(householdId, planId, [{ date: to, recipeId: from.recipeId }, { date, recipeId: into.recipeId }], deps.clock.now(), null);
    if ('refused' in written) return fail({ type: written.refused });
  }
  const updated = await deps.plans.byId(householdId, planId);
  return ok((await view(deps, h.value, [updated ?? plan]))[0]!);
}
