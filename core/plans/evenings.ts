import type { CalendarFeedStore } from '../../ports/calendar-feed-store.js';
import type { CalendarFetcher } from '../../ports/calendar-fetcher.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import type { Account } from '../accounts/types.js';
import { cookingWindow, type CookingWindow } from '../calendar/day-entries.js';
import type { CalendarEvent } from '../calendar/types.js';
import { readFeeds } from '../calendar/upcoming.js';
import { avoidsOfDay, dishConflict } from '../events/avoid-gate.js';
import { deriveDay } from '../events/portions.js';
import type { MealEvent } from '../events/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { HouseholdWithMembers } from '../households/types.js';
import { addDays, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { recipesReaching } from '../recipes/reaching.js';
import { recipeSearchKey } from '../recipes/tags.js';
import type { Recipe } from '../recipes/types.js';
import { fitsTime } from './planner.js';
import type { PlanDeps } from './plans.js';

export interface EveningDeps extends PlanDeps {
  recipes: PlanDeps['recipes'] & Pick<RecipeStore, 'page'>;
  calendarFeeds: CalendarFeedStore;
  calendarFetcher: CalendarFetcher;
}

/** What a day's evening leaves to cook. */
export interface Evening {
  readonly date: IsoDate;
  readonly cookedAtHome: boolean;
  /** The fewest minutes the day leaves to cook (its events' availableCookingMinutes, the calendar); null: not limited. */
  readonly cookingMinutes: number | null;
  /** The calendar entry that takes the dinner hour, when one does. */
  readonly busy: CookingWindow | null;
  /** The guests' avoids of the day. */
  readonly avoids: readonly string[];
}

/**
 * What each day leaves to cook, from its events (the smallest availableCookingMinutes; a servingTime moves the
 * dinner hour) and the calendar entries of the day (core/calendar/day-entries.ts cookingWindow). The planner and the
 * week's evenings use this one function.
 */
export function eveningOf(date: IsoDate, household: HouseholdWithMembers, dayEvents: readonly MealEvent[], entries: readonly CalendarEvent[]): Evening {
  const servingTime = dayEvents.find((e) => e.servingTime !== null)?.servingTime ?? household.dinnerTime;
  const busy = cookingWindow(
    entries.filter((e) => e.date === date),
    servingTime,
  );
  const limits = [...dayEvents.map((e) => e.availableCookingMinutes).filter((m): m is number => m !== null), ...(busy ? [busy.minutesLeft] : [])];
  return {
    date,
    cookedAtHome: deriveDay(household.members, dayEvents).cookedAtHome,
    cookingMinutes: limits.length > 0 ? Math.min(...limits) : null,
    busy,
    avoids: avoidsOfDay(dayEvents),
  };
}

/** A recipe's own time: its total time, else its active time (as the planner reads it). */
export const recipeMinutes = (r: Pick<Recipe, 'totalMinutes' | 'activeMinutes'>): number | null => r.totalMinutes ?? r.activeMinutes;

type Denied = ErrorOf<'household-not-found' | 'plan-not-found'>;

/** The evenings of the plan's week, or of the one day `only` (a day not in the week has none). */
async function weekEvenings(deps: EveningDeps, householdId: HouseholdId, planId: string, only: IsoDate | null): Promise<Result<Evening[], Denied>> {
  const [household, plan] = await Promise.all([deps.households.byId(householdId), deps.plans.byId(householdId, planId)]);
  if (!household) return fail({ type: 'household-not-found' });
  if (!plan) return fail({ type: 'plan-not-found' });
  const from = only ?? plan.weekStart;
  const to = only ?? addDays(plan.weekStart, 6);
  const [events, slices] = await Promise.all([deps.events.eventsBetween(householdId, from, to), readFeeds(deps, householdId, household.timeZoneId, from, to)]);
  const entries = slices.flatMap((s) => s.events);
  const dates = plan.days.map((d) => d.date).filter((d) => d >= from && d <= to);
  return ok(dates.map((date) => eveningOf(date, household, events.filter((e) => e.date === date), entries)));
}

/**
 * GET plans/{planId}/evenings (any member): for each day of the week, whether it is cooked at home, the minutes it
 * leaves to cook and the calendar entry that takes the dinner hour. The week says from this when a dish needs longer.
 */
export async function planEvenings(deps: EveningDeps, caller: Account, householdId: HouseholdId, planId: string): Promise<Result<Evening[], Denied>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  return weekEvenings(deps, householdId, planId, null);
}

/** A recipe as the day's picker offers it: whether it fits the day, and why not. */
export interface DayChoice {
  readonly recipe: Recipe;
  readonly minutes: number | null;
  /** Longer than the evening leaves (or its time is unknown on a day whose time is limited, as the planner judges). */
  readonly tooLong: boolean;
  /** The first of the day's avoids it breaks, with the ingredient; null when it may be served. */
  readonly clash: { readonly avoid: string; readonly ingredient: string } | null;
}

export interface DayChoices {
  readonly evening: Evening;
  /** Those that fit first, then the rest; each group by title. */
  readonly items: readonly DayChoice[];
  /** More recipes match than `limit`. */
  readonly more: boolean;
}

/** How many recipes the picker is offered at most, and by default. */
export const CHOICES_MAX = 200;

/**
 * GET plans/{planId}/days/{date}/choices (adults): the household's recipes (those whose title, an ingredient or a tag
 * contains `q`), each judged against the day as the planner judges it: the guests' avoids (the same gate as PUT
 * days/{date}) and the time the evening leaves. What fits comes first.
 */
export async function dayChoices(
  deps: EveningDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  date: IsoDate,
  query: { q?: string | undefined; limit?: number | undefined },
): Promise<Result<DayChoices, Denied | ErrorOf<'adults-only' | 'date-outside-week'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const evenings = await weekEvenings(deps, householdId, planId, date);
  if (!evenings.ok) return evenings;
  const evening = evenings.value[0];
  if (!evening) return fail({ type: 'date-outside-week' });
  const q = query.q === undefined ? '' : recipeSearchKey(query.q);
  const limit = Math.min(query.limit ?? CHOICES_MAX, CHOICES_MAX);
  const page = await deps.recipes.page(householdId, { titleKeyContains: null, textContains: q === '' ? null : q, tag: null, after: null, limit });
  // The gate walks each dish's bases: only they are read (the page's recipes are read already).
  const reaching = await recipesReaching(deps, householdId, page.items.map((r) => r.id), page.items);
  const judged = page.items.map((recipe): DayChoice => {
    const minutes = recipeMinutes(recipe);
    const limitMinutes = evening.cookingMinutes;
    const conflict = dishConflict(reaching.get(recipe.id) ?? recipe, reaching, evening.avoids, date);
    return {
      recipe,
      minutes,
      tooLong: !fitsTime({ minutes }, limitMinutes),
      clash: conflict ? { avoid: conflict.avoid, ingredient: conflict.ingredient } : null,
    };
  });
  const fits = (c: DayChoice) => !c.tooLong && c.clash === null;
  return ok({ evening, items: [...judged.filter(fits), ...judged.filter((c) => !fits(c))], more: page.more });
}
