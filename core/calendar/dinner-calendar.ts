import type { Clock } from '../../ports/clock.js';
import type { DinnerCalendarStore } from '../../ports/dinner-calendar-store.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { MealEventReader } from '../../ports/meal-event-store.js';
import type { PlanStore } from '../../ports/plan-store.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import type { SecretTokens } from '../../ports/secret-tokens.js';
import type { Account } from '../accounts/types.js';
import type { MealEvent } from '../events/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import { deriveDay } from '../events/portions.js';
import { addDays, dateIn, weekStartOf, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { instantAt } from './wall-clock.js';

export interface DinnerCalendarDeps {
  households: HouseholdStore;
  dinnerCalendars: DinnerCalendarStore;
  plans: Pick<PlanStore, 'weeksBetween'>;
  events: MealEventReader;
  recipes: Pick<RecipeStore, 'byIds'>;
  tokens: SecretTokens;
  clock: Clock;
}

/** The dinner calendar feed covers 14 days back to 42 days ahead of today in the household's zone. */
export const DINNER_CALENDAR_DAYS_BACK = 14;
export const DINNER_CALENDAR_DAYS_AHEAD = 42;
/** Cooking time of a dish whose recipe gives none, on a day whose events give none. */
export const DEFAULT_COOKING_MINUTES = 45;

/**
 * What a feed address may look like: URL-safe, at least 128 bits' worth (22 base64url characters). Anything else
 * answers as an unknown token without asking the store.
 */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22,128}$/;

/** The household's link token; null while it is turned off. */
export interface DinnerCalendarLinkView {
  readonly token: string | null;
}

/**
 * The link, for any member. The link is active from the household's creation: the token is drawn the first
 * time anyone reads it (nobody can know a token before that), once, whatever the number of concurrent readers.
 * A link turned off stays off until an adult resets it.
 */
export async function readDinnerCalendarLink(
  deps: DinnerCalendarDeps,
  caller: Account,
  householdId: HouseholdId,
): Promise<Result<DinnerCalendarLinkView, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const link = (await deps.dinnerCalendars.linkOf(householdId)) ?? (await deps.dinnerCalendars.ensure(householdId, deps.tokens.generate(), deps.clock.now()));
  return ok({ token: link.token });
}

/** A new token (adults only): the old address answers 404 from now on. Also turns a turned-off link on again. */
export async function resetDinnerCalendarLink(
  deps: DinnerCalendarDeps,
  caller: Account,
  householdId: HouseholdId,
): Promise<Result<DinnerCalendarLinkView, ErrorOf<'household-not-found' | 'adults-only'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const link = await deps.dinnerCalendars.replace(householdId, deps.tokens.generate(), deps.clock.now());
  return ok({ token: link.token });
}

/** Turns the link off (adults only): the address answers 404 until an adult resets the link. Idempotent. */
export async function turnOffDinnerCalendarLink(
  deps: DinnerCalendarDeps,
  caller: Account,
  householdId: HouseholdId,
): Promise<Result<void, ErrorOf<'household-not-found' | 'adults-only'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  await deps.dinnerCalendars.replace(householdId, null, deps.clock.now());
  return ok(undefined);
}

/** One dinner cooked at home: from the start of cooking to serving. */
export interface CalendarDinner {
  readonly date: IsoDate;
  readonly title: string;
  readonly start: Date;
  readonly end: Date;
}

export interface DinnerCalendar {
  readonly householdId: HouseholdId;
  readonly householdName: string;
  readonly timeZoneId: string;
  readonly generatedAt: Date;
  /** By date. */
  readonly dinners: readonly CalendarDinner[];
}

/**
 * The calendar behind a feed token: one dinner per day cooked at home that has a dish, from 14 days back to
 * 42 days ahead. Unknown, replaced, turned-off and malformed tokens fail alike.
 *
 * - Days without a dish, and days an EatingOut or Travel event closes, are left out (nothing to cook).
 * - Serving time: the earliest servingTime the day's events give (the table must be ready for the first
 *   who asks), else the household's dinnerTime; both in the household's time zone.
 * - Cooking time: the recipe's totalMinutes, else its activeMinutes, else the smallest availableCookingMinutes
 *   of the day's events, else 45 minutes. Zero counts as not given.
 */
export async function dinnerCalendarOf(deps: DinnerCalendarDeps, token: string): Promise<Result<DinnerCalendar, ErrorOf<'dinner-calendar-not-found'>>> {
  const notFound = fail({ type: 'dinner-calendar-not-found' as const });
  if (!TOKEN_SHAPE.test(token)) return notFound;
  const householdId = await deps.dinnerCalendars.householdOf(token);
  if (householdId === null) return notFound;
  const household = await deps.households.byId(householdId);
  if (!household) return notFound;

  const now = deps.clock.now();
  const today = dateIn(household.timeZoneId, now);
  const from = addDays(today, -DINNER_CALENDAR_DAYS_BACK);
  const to = addDays(today, DINNER_CALENDAR_DAYS_AHEAD);
  const [plans, events] = await Promise.all([deps.plans.weeksBetween(householdId, weekStartOf(from), weekStartOf(to)), deps.events.eventsBetween(householdId, from, to)]);
  const days = plans.flatMap((p) => p.days).filter((d) => d.date >= from && d.date <= to && d.recipeId !== null);
  const recipes = new Map((await deps.recipes.byIds(householdId, [...new Set(days.map((d) => d.recipeId!))])).map((r) => [r.id, r]));
  const byDate = new Map<IsoDate, MealEvent[]>();
  for (const e of events) byDate.set(e.date, [...(byDate.get(e.date) ?? []), e]);

  const dinners: CalendarDinner[] = [];
  for (const day of days.sort((a, b) => a.date.localeCompare(b.date))) {
    const recipe = recipes.get(day.recipeId!);
    if (!recipe) continue;
    const dayEvents = byDate.get(day.date) ?? [];
    if (!deriveDay(household.members, dayEvents).cookedAtHome) continue;
    const serving = earliest(dayEvents.map((e) => e.servingTime).filter((t): t is string => t !== null && HH_MM.test(t))) ?? household.dinnerTime;
    const minutes = positive(recipe.totalMinutes) ?? positive(recipe.activeMinutes) ?? smallest(dayEvents.map((e) => positive(e.availableCookingMinutes))) ?? DEFAULT_COOKING_MINUTES;
    const end = instantAt(household.timeZoneId, day.date, serving);
    dinners.push({ date: day.date, title: recipe.title, start: new Date(end.getTime() - minutes * 60_000), end });
  }
  return ok({ householdId, householdName: household.name, timeZoneId: household.timeZoneId, generatedAt: now, dinners });
}

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const positive = (n: number | null): number | null => (n !== null && n > 0 ? n : null);
const earliest = (times: string[]): string | null => (times.length === 0 ? null : times.reduce((a, b) => (b < a ? b : a)));
function smallest(values: (number | null)[]): number | null {
  const given = values.filter((n): n is number => n !== null);
  return given.length === 0 ? null : Math.min(...given);
}
