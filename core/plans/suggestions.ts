import type { CalendarFeedStore } from '../../ports/calendar-feed-store.js';
import type { CalendarFetcher } from '../../ports/calendar-fetcher.js';
import type { Clock } from '../../ports/clock.js';
import type { DinnerPriceStore } from '../../ports/dinner-price-store.js';
import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { MealEventReader } from '../../ports/meal-event-store.js';
import type { PantryMergeReader } from '../../ports/pantry-merge-store.js';
import type { PantryObservationStore } from '../../ports/pantry-observation-store.js';
import type { AiQuotaStore, PlannerAi } from '../../ports/planner-ai.js';
import type { RateGate } from '../../ports/rate-gate.js';
import type { PlanRow, PlanStore } from '../../ports/plan-store.js';
import type { PriceProvider } from '../../ports/price-provider.js';
import type { ReceiptStore } from '../../ports/receipt-store.js';
import type { RecipeLibrary } from '../../ports/recipe-library.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import type { Account } from '../accounts/types.js';
import type { CookingWindow } from '../calendar/day-entries.js';
import { eveningOf } from './evenings.js';
import { readFeeds } from '../calendar/upcoming.js';
import type { MealEvent } from '../events/types.js';
import { requireAdult } from '../households/access.js';
import type { HouseholdWithMembers } from '../households/types.js';
import { mergeTargets, pantryRowsOf } from '../pantry/model.js';
import { recipesReaching } from '../recipes/reaching.js';
import { recipeTitleKey, type Recipe } from '../recipes/types.js';
import { addDays, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { avoidsOfDay, dishConflict } from '../events/avoid-gate.js';
import { aiTips, type AiRefusal } from './planner-ai.js';
import { candidatesOf, candidateSources, dishHistory, type CandidateSource, libraryIdOf, plannerPrices, usualPricePerPortion } from './planner-inputs.js';
import { type PlannerDay, type SuggestionReason } from './planner.js';
import { planWeekWithLeftovers } from './leftovers-planner.js';
import { acceptedLeftovers } from './leftovers.js';
import { viewsOf, type PlanDeps, type PlanView } from './plans.js';
import { deriveDay, shareOf } from '../events/portions.js';
import { busyNote, servingNotesOf } from './serving-notes.js';
import { planWeekWithRules, ruleContext, ruleViewsOf, type DayRuleView, type RuleNotServedView } from './dinner-rule-planner.js';

export interface SuggestionDeps extends PlanDeps {
  households: HouseholdStore;
  plans: PlanStore;
  events: MealEventReader;
  recipes: PlanDeps['recipes'] & Pick<RecipeStore, 'all' | 'create' | 'page'>;
  /** The shared recipe library (an install may run with none: it is then empty). */
  recipeLibrary: RecipeLibrary;
  pantry: PantryObservationStore;
  pantryMerges: PantryMergeReader;
  prices: PriceProvider;
  receipts: ReceiptStore;
  foodTable: FoodTableStore;
  dinnerPrices: DinnerPriceStore;
  calendarFeeds: CalendarFeedStore;
  calendarFetcher: CalendarFetcher;
  /** The operator's AI and each household's monthly calls; null when no AI is configured. */
  plannerAi: { readonly ai: PlannerAi; readonly monthlyCalls: number } | null;
  aiQuota: AiQuotaStore;
  /** Counts a household's proposals (rate class planner-per-household; unlimited where nothing rations them). */
  plannerGate: RateGate;
  ids: IdGenerator;
  clock: Clock;
}

export interface SuggestionRequest {
  /** Another seed gives another draw; left out: 0. */
  readonly seed?: number | undefined;
  /** Exactly these days of the week (each must be in it); left out: every day cooked at home without a dish. */
  readonly days?: readonly IsoDate[] | undefined;
  /** Dishes shown for other days and kept by the person: not proposed again. */
  readonly keeping?: readonly { readonly date: IsoDate; readonly recipeId: string }[] | undefined;
  /** Ask the configured AI for serving notes and tips (default: when one is configured). */
  readonly ai?: boolean | undefined;
}

export interface DaySuggestion {
  readonly date: IsoDate;
  /** A recipe of the household, `library:{id}` for one of the library, or null when nothing fits. */
  readonly recipeId: string | null;
  readonly recipeTitle: string | null;
  readonly reasons: readonly SuggestionReason[];
  readonly servingNotes: readonly string[];
  readonly portions: number;
  /** The minutes the day leaves to cook, when limited (its events or the calendar). */
  readonly cookingMinutes: number | null;
  /** The dish's own time, when the recipe says. */
  readonly recipeMinutes: number | null;
  /** Estimated NOK for the day's portions; null when not every line is priced (or prices are off). */
  readonly estimatedPrice: number | null;
  /** The pantry foods to eat soon that the dish uses. */
  readonly pantryFoods: readonly string[];
  /** The newest day of the last HISTORY_WEEKS weeks (before this one) whose plan had the dish; null: none. */
  readonly lastEatenOn: IsoDate | null;
  /** On how many days of those weeks the dish was on the plan (0 with no dish). */
  readonly timesEaten: number;
  /** How many weeks back the household's plans are read (for Favourite and NotEatenInWeeks). */
  readonly historyWeeks: number;
  /** The earlier day whose dish this day eats as leftovers (reason Leftovers; recipeMinutes then null: nothing to cook); null: cooked. */
  readonly leftoversOf: IsoDate | null;
  /** The dinner rule that put the dish there (reason Rule) or kept every dish away (RuleNotServed); else null. */
  readonly rule: DayRuleView | null;
}

export interface WeekSuggestion {
  readonly planId: string;
  readonly weekStart: IsoDate;
  readonly seed: number;
  readonly days: readonly DaySuggestion[];
  /** The priced days' estimates added up; null when none is priced. */
  readonly estimatedPrice: number | null;
  /** The household's usual price per portion times the proposed days' portions; null when not known. */
  readonly usualPrice: number | null;
  /** Whether the AI wrote notes for this answer. */
  readonly aiNotes: boolean;
  /** The household's dinner rules the proposed week cannot serve, and why. */
  readonly rulesNotServed: readonly RuleNotServedView[];
}

type Denied = ErrorOf<'household-not-found' | 'adults-only' | 'plan-not-found' | 'date-outside-week'>;

/**
 * How far back a dish counts as eaten lately, and how far back the household's plans are read: for its usual price
 * and for what they say of each dish (Favourite, NotEatenSince, NotEatenInWeeks).
 */
export const EATEN_LATELY_DAYS = 14;
export const USUAL_PRICE_WEEKS = 8;
export const HISTORY_WEEKS = USUAL_PRICE_WEEKS;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The pantry foods losing confidence (UseSoon), by every candidate ingredient's key that counts toward them. */
function useSoonOf(sources: readonly CandidateSource[], observations: Parameters<typeof pantryRowsOf>[0], merges: Parameters<typeof pantryRowsOf>[1], now: Date): Map<string, string> {
  const soon = new Map(pantryRowsOf(observations, merges, now).filter((r) => r.group === 'UseSoon').map((r) => [r.foodKey, r.displayName]));
  const target = mergeTargets(merges);
  const useSoon = new Map<string, string>();
  for (const s of sources) for (const i of s.ingredients) if (soon.has(target(i.foodKey))) useSoon.set(i.foodKey, soon.get(target(i.foodKey))!);
  return useSoon;
}

/**
 * POST plans/{planId}/suggestions (adults): a dish for each day asked (or each day of the week cooked at home
 * without one), nothing written. Same inputs and seed, same answer.
 */
export async function suggestWeek(
  deps: SuggestionDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  request: SuggestionRequest,
): Promise<Result<WeekSuggestion, Denied | AiRefusal | ErrorOf<'planner-throttled'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const [household, plan] = await Promise.all([deps.households.byId(householdId), deps.plans.byId(householdId, planId)]);
  if (!household) return fail({ type: 'household-not-found' });
  if (!plan) return fail({ type: 'plan-not-found' });
  const weekDays = plan.days.map((d) => d.date);
  if (request.days?.some((d) => !weekDays.includes(d)) || request.keeping?.some((k) => !weekDays.includes(k.date))) return fail({ type: 'date-outside-week' });
  const gate = await deps.plannerGate(householdId);
  if (!gate.allowed) return fail({ type: 'planner-throttled', retryAfterSec: gate.retryAfterSec });
  const seed = (request.seed ?? 0) >>> 0;
  const now = deps.clock.now();
  const weekStart = plan.weekStart;
  const lastDay = addDays(weekStart, 6);

  const [events, recipes, library, past, observations, merges, slices, rules] = await Promise.all([
    deps.events.eventsBetween(householdId, weekStart, lastDay),
    deps.recipes.all(householdId),
    household.libraryRecipesOn ? deps.recipeLibrary.all() : Promise.resolve(null),
    deps.plans.weeksBetween(householdId, addDays(weekStart, -7 * HISTORY_WEEKS), addDays(weekStart, -7)),
    deps.pantry.ofHousehold(householdId),
    deps.pantryMerges.activeMerges(householdId),
    readFeeds(deps, householdId, household.timeZoneId, weekStart, lastDay),
    deps.dinnerRules.list(householdId),
  ]);
  const eventsOn = (date: IsoDate) => events.filter((e) => e.date === date);
  const derived = new Map(plan.days.map((d) => [d.date, deriveDay(household.members, eventsOn(d.date))]));
  const named = request.days ? new Set(request.days) : null;
  const asked = plan.days.filter((d) => (named ? named.has(d.date) : d.recipeId === null && d.leftoversOf === null && derived.get(d.date)!.cookedAtHome));
  const open = asked.filter((d) => derived.get(d.date)!.cookedAtHome);

  // What the calendar leaves to cook each day, and what the day's events allow.
  const entries = slices.flatMap((s) => s.events);
  const windows = new Map<IsoDate, CookingWindow | null>();
  const days: PlannerDay[] = open.map((d) => {
    const evening = eveningOf(d.date, household, eventsOn(d.date), entries);
    windows.set(d.date, evening.busy);
    return { date: d.date, avoids: derived.get(d.date)!.avoids, limitMinutes: evening.cookingMinutes };
  });

  // The candidates, their prices, and what the household ate lately.
  const sources = candidateSources(recipes, library);
  const since = addDays(weekStart, -EATEN_LATELY_DAYS);
  const pastDishes = past.flatMap((p) => p.days).filter((d) => d.recipeId !== null);
  const prices = household.priceCatalogueOn
    ? await plannerPrices(deps, householdId, [...new Set(sources.flatMap((s) => s.lines.map((l) => l.foodKey)))], household.chains, now)
    : null;
  const candidates = candidatesOf(sources, prices, household.dislikes, dishHistory(pastDishes), since);
  // The dinners of the last weeks are among the candidates, already priced.
  const priceOf = new Map(candidates.map((c) => [c.id, c.pricePerPortion]));
  const usual = prices === null ? null : await usualPricePerPortion(deps, pastDishes.map((d) => priceOf.get(d.recipeId!) ?? null), shareOf(household.members));

  const useSoon = useSoonOf(sources, observations, merges, now);

  const fill = new Set(open.map((d) => d.date));
  // A dish on a day nobody eats at home (an event closed it) is on no day: it does not count as planned this week.
  // The week's dishes on open days not asked for may be cooked double for an evening with little time, as may the
  // dishes the rules put on the week; the rules claim their days first.
  const cooked = plan.days.filter((d) => !fill.has(d.date) && d.recipeId !== null && derived.get(d.date)!.cookedAtHome).map((d) => ({ date: d.date, id: d.recipeId! }));
  const taken = [...cooked.map((c) => c.id), ...(request.keeping ?? []).filter((k) => !fill.has(k.date)).map((k) => k.recipeId)];
  const kept = [...plan.days.filter((d) => !fill.has(d.date) && derived.get(d.date)!.cookedAtHome), ...(request.keeping ?? []).filter((k) => !fill.has(k.date))];
  const closed = (named ? asked : plan.days).filter((d) => !derived.get(d.date)!.cookedAtHome).map((d) => d.date);
  const ruled = planWeekWithRules(
    { days, candidates, taken, useSoon, usualPricePerPortion: usual, seed },
    ruleContext(rules, recipes, [...pastDishes, ...kept], closed),
    (input, picked) => planWeekWithLeftovers({ ...input, cooked: [...cooked, ...picked], keepDays: household.leftoversKeepDays }),
  );
  const planned = new Map(ruled.days.map((p) => [p.date, p]));
  const said = ruleViewsOf(ruled, recipes);

  const tips = await aiTips(deps, household, request.ai, [...planned.values()], derived, days, now);
  if (!tips.ok) return tips;

  const out: DaySuggestion[] = asked.map((d) => {
    const day = derived.get(d.date)!;
    const portions = day.cookedAtHome && d.portionsOverride !== null ? d.portionsOverride : day.portions;
    const p = planned.get(d.date);
    const notes = servingNotesOf(eventsOn(d.date), household.members, household.language);
    const window = windows.get(d.date);
    if (window) notes.push(busyNote(window, household.language));
    for (const tip of tips.value.get(d.date) ?? []) if (!notes.includes(tip)) notes.push(tip);
    const each = p?.pick?.pricePerPortion ?? null;
    return {
      date: d.date,
      recipeId: p?.pick?.id ?? null,
      recipeTitle: p?.pick?.title ?? null,
      reasons: p ? p.reasons : ['DayClosed'],
      servingNotes: p?.pick ? notes : servingNotesOf(eventsOn(d.date), household.members, household.language),
      portions,
      cookingMinutes: days.find((x) => x.date === d.date)?.limitMinutes ?? null,
      recipeMinutes: p?.leftoversOf ? null : (p?.pick?.minutes ?? null),
      estimatedPrice: each === null ? null : round2(each * portions),
      pantryFoods: p?.pantryFoods ?? [],
      lastEatenOn: p?.pick?.lastEatenOn ?? null,
      timesEaten: p?.pick?.timesEaten ?? 0,
      historyWeeks: HISTORY_WEEKS,
      leftoversOf: p?.leftoversOf ?? null,
      rule: said.dayRule(d.date),
    };
  });
  const priced = out.filter((d) => d.estimatedPrice !== null);
  const proposed = out.filter((d) => d.recipeId !== null);
  return ok({
    planId: plan.id,
    weekStart,
    seed,
    days: out,
    estimatedPrice: priced.length === 0 ? null : round2(priced.reduce((n, d) => n + d.estimatedPrice!, 0)),
    usualPrice: usual === null || proposed.length === 0 ? null : round2(usual * proposed.reduce((n, d) => n + d.portions, 0)),
    aiNotes: tips.value.size > 0,
    rulesNotServed: said.notServed,
  });
}

export interface AcceptRequest {
  /** A day with `leftoversOf` eats the leftovers of that earlier day, whose dish (planned, or accepted with it) is `recipeId`. */
  readonly days: readonly { readonly date: IsoDate; readonly recipeId: string; readonly leftoversOf?: IsoDate | undefined }[];
}

/**
 * POST plans/{planId}/suggestions/accept (adults): the kept days' dishes written in one transaction, each
 * checked against the candidate gate again (a day's avoids may have changed since the proposal), with a
 * `week-planned` push to the other members (their runDone switch). A library dish is first added to the
 * household's recipes (once: a recipe of the same title is taken as it).
 */
export async function acceptSuggestions(
  deps: SuggestionDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  request: AcceptRequest,
): Promise<Result<PlanView, Denied | ErrorOf<'recipe-not-found' | 'avoid-conflict' | 'leftovers-refused'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const [household, plan] = await Promise.all([deps.households.byId(householdId), deps.plans.byId(householdId, planId)]);
  if (!household) return fail({ type: 'household-not-found' });
  if (!plan) return fail({ type: 'plan-not-found' });
  if (request.days.some((d) => !plan.days.some((x) => x.date === d.date))) return fail({ type: 'date-outside-week' });
  const library = request.days.some((d) => libraryIdOf(d.recipeId) !== null) ? await libraryRecipes(deps, household) : null;
  if (library && !library.ok) return library;
  const leftovers = await acceptedLeftovers(deps, householdId, plan, request.days);
  if (!leftovers.ok) return leftovers;
  const dishes: { date: IsoDate; recipeId: string; leftoversOf: IsoDate | null }[] = [];
  for (const d of request.days) {
    const libraryId = libraryIdOf(d.recipeId);
    const recipeId = libraryId === null ? d.recipeId : await recipeFromLibrary(deps, householdId, library!.value, libraryId);
    if (recipeId === null) return fail({ type: 'recipe-not-found' });
    dishes.push({ date: d.date, recipeId, leftoversOf: d.leftoversOf ?? null });
  }
  const [recipes, events] = await Promise.all([recipesReaching(deps, householdId, dishes.map((d) => d.recipeId)), deps.events.eventsBetween(householdId, plan.weekStart, addDays(plan.weekStart, 6))]);
  for (const d of dishes) {
    const recipe = recipes.get(d.recipeId);
    if (!recipe) return fail({ type: 'recipe-not-found' });
    const conflict = dishConflict(recipe, recipes, avoidsOfDay(events.filter((e) => e.date === d.date)), d.date);
    if (conflict) return fail({ type: 'avoid-conflict', ...conflict });
  }
  const now = deps.clock.now();
  const push = dishes.length === 0 ? null : { id: deps.ids.newId(), householdId, createdAt: now, event: { kind: 'week-planned' as const, planId, weekStart: plan.weekStart, dinners: dishes.length, actorAccountId: caller.id } };
  const written = await deps.plans.setDishes(householdId, planId, dishes.map((d) => (d.leftoversOf ? { date: d.date, recipeId: null, leftoversOf: d.leftoversOf } : d)), now, push);
  if ('refused' in written) return fail({ type: written.refused });
  return ok(await viewOf(deps, household, written, events));
}

async function viewOf(deps: SuggestionDeps, household: HouseholdWithMembers, plan: PlanRow, events: readonly MealEvent[]): Promise<PlanView> {
  const titles = await deps.recipes.titlesOf(household.id, [...new Set(plan.days.map((d) => d.recipeId).filter((r): r is string => r !== null))]);
  return viewsOf(household, [plan], events, titles)[0]!;
}

async function libraryRecipes(deps: SuggestionDeps, household: HouseholdWithMembers): Promise<Result<Awaited<ReturnType<RecipeLibrary['all']>>, ErrorOf<'recipe-not-found'>>> {
  // A household that turned the library off has no library dish to save.
  if (!household.libraryRecipesOn) return fail({ type: 'recipe-not-found' });
  return ok(await deps.recipeLibrary.all());
}

/** The household's recipe for a library dish: one of the same title, else a copy made now (with its credit). */
async function recipeFromLibrary(deps: SuggestionDeps, householdId: HouseholdId, library: Awaited<ReturnType<RecipeLibrary['all']>>, libraryId: string): Promise<string | null> {
  const l = library.find((r) => r.id === libraryId);
  if (!l) return null;
  const key = recipeTitleKey(l.title);
  const same = await deps.recipes.page(householdId, { titleKeyContains: key, after: null, limit: 50 });
  const found = same.items.find((r) => recipeTitleKey(r.title) === key);
  if (found) return found.id;
  const created = await deps.recipes.create(
    householdId,
    deps.ids.newId(),
    {
      title: l.title,
      servings: l.servings,
      activeMinutes: null,
      totalMinutes: l.totalMinutes,
      steps: [`${l.attribution} (${l.licence}). ${l.source}`],
      ingredients: l.ingredients.map((i) => ({ displayName: i.displayName, foodKey: i.foodKey, quantity: i.quantity, unit: i.unit, optional: false, baseRecipeId: null, reference: null })),
      sourceUrl: null,
      imageUrl: null,
    },
    deps.clock.now(),
  );
  return 'refused' in created ? null : (created as Recipe).id;
}
