import * as v from 'valibot';
import type { Account } from '../../../core/accounts/types.js';
import type { AppError } from '../../../core/kernel/errors.js';
import { todayOf } from '../../../core/events/rules.js';
import { addDays, weekStartOf, type IsoDate } from '../../../core/kernel/dates.js';
import type { HouseholdId } from '../../../core/kernel/ids.js';
import type { Result } from '../../../core/kernel/result.js';
import { ensureWeekPlan, listPlans, setPlanDay, type PlanDayView, type PlanView } from '../../../core/plans/plans.js';
import { suggestWeek } from '../../../core/plans/suggestions.js';
import { listRecipeSummaries } from '../../../core/recipes/recipes.js';
import { remainingOf } from '../../../core/shopping/line-amounts.js';
import { addShoppingItem, getShoppingList, updateShoppingItem } from '../../../core/shopping/lists.js';
import type { ShoppingLine } from '../../../core/shopping/types.js';
import type { ServiceDeps } from '../deps.js';
import { problemFor } from '../problem.js';

/**
 * The tools of the MCP endpoint (/mcp): what a family asks an assistant about dinner and shopping, each a call of the
 * same use case a route calls, for the one household and person of the personal access token. A tool answers text
 * for the assistant to read out and the same facts as structured content; a refusal (an adult's action asked by a
 * junior's token, a recipe of another household) is a tool error whose text says why, as the route's problem does.
 * No answer carries another household's data or anyone's e-mail address.
 */

/** Who calls: the token's person and household. */
export interface ToolCaller {
  readonly account: Account;
  readonly householdId: HouseholdId;
}

export interface ToolAnswer {
  readonly text: string;
  readonly data: Record<string, unknown>;
}

/** A refusal the assistant can say: the problem's own detail (the same as the HTTP route's). */
export class ToolRefusal extends Error {}

export interface Tool<I> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Whether the tool changes the household's data: a read-only token is not offered it. */
  readonly writes: boolean;
  readonly input: v.GenericSchema<unknown, I>;
  run(deps: ServiceDeps, caller: ToolCaller, input: I): Promise<ToolAnswer>;
}

const tool = <I>(t: Tool<I>): Tool<I> => t;

function valueOf<T>(result: Result<T, AppError>): T {
  if (result.ok) return result.value;
  throw new ToolRefusal(problemFor(result.error).detail);
}

const DateInput = v.pipe(v.string(), v.isoDate(), v.description('A day, YYYY-MM-DD; left out: today in the household\'s time zone'));

/** Today in the household's time zone (as the routes' "today" is). */
async function householdToday(deps: ServiceDeps, householdId: HouseholdId): Promise<IsoDate> {
  const household = await deps.households.byId(householdId);
  if (!household) throw new ToolRefusal('the household is gone');
  return todayOf(household, deps.clock.now());
}

/** The plan of the week holding `date`, or null when the week has none (read: nothing is made). */
async function weekPlan(deps: ServiceDeps, caller: ToolCaller, date: IsoDate): Promise<PlanView | null> {
  const from = weekStartOf(date);
  const plans = valueOf(await listPlans(deps, caller.account, caller.householdId, { from, to: addDays(from, 6) }));
  return plans.find((p) => p.weekStart === from) ?? null;
}

/** The week holding the day asked (today unless said), and its plan if it has one. */
async function askedWeek(deps: ServiceDeps, caller: ToolCaller, date: IsoDate | undefined): Promise<{ weekStart: IsoDate; plan: PlanView | null }> {
  const day = date ?? (await householdToday(deps, caller.householdId));
  return { weekStart: weekStartOf(day), plan: await weekPlan(deps, caller, day) };
}

const dinnerOf = (d: PlanDayView) => ({
  date: d.date,
  dish: d.recipeTitle ?? d.leftovers?.recipeTitle ?? null,
  recipeId: d.recipeId,
  leftoversOf: d.leftovers?.of ?? null,
  cookedAtHome: d.cookedAtHome,
  portions: d.portions,
  note: d.note,
  servingNotes: d.servingNotes,
});

const portions = (n: number) => `${n} ${n === 1 ? 'portion' : 'portions'}`;

const dinnerLine = (d: ReturnType<typeof dinnerOf>) => {
  if (!d.cookedAtHome) return `${d.date}: nobody eats dinner at home.`;
  if (d.dish === null) return `${d.date}: no dinner planned yet (${portions(d.portions)}).`;
  const leftovers = d.leftoversOf ? ` (leftovers from ${d.leftoversOf})` : '';
  const notes = [d.note, ...d.servingNotes].filter(Boolean).join('; ');
  return `${d.date}: ${d.dish}${leftovers}, ${portions(d.portions)}${notes ? `. ${notes}` : ''}.`;
};

const todaysDinner = tool({
  name: 'todays_dinner',
  title: "Today's dinner",
  description: "Today's planned dinner in the household: the dish, how many portions, the day's note and serving notes (guests' avoids).",
  writes: false,
  input: v.object({}),
  async run(deps, caller) {
    const today = await householdToday(deps, caller.householdId);
    const day = (await weekPlan(deps, caller, today))?.days.find((d) => d.date === today);
    if (!day) return { text: `${today}: no dinner planned yet.`, data: { date: today, dinner: null } };
    const dinner = dinnerOf(day);
    return { text: dinnerLine(dinner), data: { date: today, dinner } };
  },
});

const weekDinners = tool({
  name: 'week_dinners',
  title: "The week's dinners",
  description: 'The dinners planned for the week (Monday to Sunday) holding a day: each day\'s dish, portions and notes.',
  writes: false,
  input: v.object({ date: v.optional(DateInput) }),
  async run(deps, caller, input) {
    const { weekStart, plan } = await askedWeek(deps, caller, input.date);
    if (!plan) return { text: `The week of ${weekStart} has no plan yet.`, data: { weekStart, days: [] } };
    const days = plan.days.map(dinnerOf);
    return { text: days.map(dinnerLine).join('\n'), data: { weekStart, planId: plan.id, days } };
  },
});

const lineOf = (l: ShoppingLine) => ({ id: l.id, name: l.displayName, quantity: remainingOf(l), unit: l.unit, ticked: l.status === 'Purchased' });

const shoppingList = tool({
  name: 'shopping_list',
  title: 'The shopping list',
  description: "The shopping list of the week holding a day (default: this week): what is still to buy and what is ticked.",
  writes: false,
  input: v.object({ date: v.optional(DateInput) }),
  async run(deps, caller, input) {
    const { weekStart, plan } = await askedWeek(deps, caller, input.date);
    if (!plan) return { text: `The week of ${weekStart} has no plan, so no shopping list yet.`, data: { weekStart, lines: [] } };
    const { list } = valueOf(await getShoppingList(deps, caller.account, caller.householdId, plan.id));
    const lines = list.lines.map(lineOf);
    const toBuy = lines.filter((l) => !l.ticked);
    const text = toBuy.length === 0 ? 'Nothing left to buy.' : toBuy.map((l) => `${l.name}: ${l.quantity} ${l.unit}`).join('\n');
    return { text, data: { weekStart: plan.weekStart, planId: plan.id, lines } };
  },
});

const addToList = tool({
  name: 'add_to_shopping_list',
  title: 'Add to the shopping list',
  description: 'Puts something on the shopping list of the week holding a day (default: this week), e.g. "2 l melk" or "coffee".',
  writes: true,
  input: v.object({
    item: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description('What to buy, with an amount if one is said ("2 kg poteter")')),
    date: v.optional(DateInput),
  }),
  async run(deps, caller, input) {
    const date = input.date ?? (await householdToday(deps, caller.householdId));
    const plan = valueOf(await ensureWeekPlan(deps, caller.account, caller.householdId, date));
    const line = valueOf(await addShoppingItem(deps, caller.account, caller.householdId, plan.id, { displayName: input.item }));
    return { text: `${line.displayName} is on the list (${remainingOf(line)} ${line.unit}).`, data: { line: lineOf(line) } };
  },
});

const tickLine = tool({
  name: 'tick_shopping_line',
  title: 'Tick a line of the shopping list',
  description: "Marks a line of this week's shopping list as bought (or not bought again), by its id from shopping_list or by its name.",
  writes: true,
  input: v.object({
    line: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("The line's id, or its name as the list shows it")),
    bought: v.optional(v.boolean(), true),
  }),
  async run(deps, caller, input) {
    const plan = await weekPlan(deps, caller, await householdToday(deps, caller.householdId));
    if (!plan) throw new ToolRefusal('this week has no shopping list');
    const { list } = valueOf(await getShoppingList(deps, caller.account, caller.householdId, plan.id));
    const wanted = input.line.trim().toLowerCase();
    const named = list.lines.filter((l) => l.id === input.line.trim() || l.displayName.toLowerCase() === wanted);
    const matches = named.length > 0 ? named : list.lines.filter((l) => l.displayName.toLowerCase().includes(wanted));
    if (matches.length === 0) throw new ToolRefusal(`no line of this week's list is called "${input.line}"`);
    if (matches.length > 1) throw new ToolRefusal(`"${input.line}" matches ${matches.map((l) => l.displayName).join(', ')}: say which`);
    const line = valueOf(await updateShoppingItem(deps, caller.account, caller.householdId, matches[0]!.id, { status: input.bought ? 'Purchased' : 'Buy' }));
    return { text: `${line.displayName} is ${input.bought ? 'ticked' : 'to buy again'}.`, data: { line: lineOf(line) } };
  },
});

const planDinner = tool({
  name: 'plan_dinner',
  title: 'Put a recipe on a day',
  description: "Plans a recipe of the household for a day's dinner (its id from search_recipes), with portions and a note if asked. Adults only; the guests' avoids are checked.",
  writes: true,
  input: v.object({
    date: v.pipe(v.string(), v.isoDate(), v.description('The day, YYYY-MM-DD')),
    recipeId: v.pipe(v.string(), v.uuid(), v.description('The recipe, from search_recipes')),
    portions: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
    note: v.optional(v.pipe(v.string(), v.maxLength(500))),
  }),
  async run(deps, caller, input) {
    const plan = valueOf(await ensureWeekPlan(deps, caller.account, caller.householdId, input.date));
    const day = valueOf(await setPlanDay(deps, caller.account, caller.householdId, plan.id, input.date, { recipeId: input.recipeId, portions: input.portions ?? null, note: input.note ?? null }));
    const dinner = dinnerOf(day);
    return { text: dinnerLine(dinner), data: { dinner } };
  },
});

const suggest = tool({
  name: 'suggest_week',
  title: 'Suggest dinners for the week',
  description:
    "Proposes dinners for the days of the week (holding a day; default this week) from today on that are cooked at home and have no dinner yet, by the household's planner: its dinner rules, the guests' avoids, the evenings' time. Nothing is saved; plan_dinner saves a day. Adults only.",
  writes: true,
  input: v.object({ date: v.optional(DateInput) }),
  async run(deps, caller, input) {
    const today = await householdToday(deps, caller.householdId);
    const plan = valueOf(await ensureWeekPlan(deps, caller.account, caller.householdId, input.date ?? today));
    const open = plan.days.filter((d) => d.date >= today && d.cookedAtHome && d.recipeId === null && d.leftovers === null).map((d) => d.date);
    if (open.length === 0) return { text: 'Every day left of that week has its dinner, or nobody eats at home.', data: { weekStart: plan.weekStart, days: [] } };
    const week = valueOf(await suggestWeek(deps, caller.account, caller.householdId, plan.id, { days: open, ai: false }));
    const days = week.days.map((d) => ({ date: d.date, recipeId: d.recipeId, dish: d.recipeTitle, portions: d.portions, servingNotes: d.servingNotes }));
    const text = days.map((d) => `${d.date}: ${d.dish === null ? 'nothing fits' : `${d.dish}, ${portions(d.portions)}`}`).join('\n');
    return { text, data: { weekStart: week.weekStart, days } };
  },
});

const SEARCH_LIMIT_MAX = 25;

const searchRecipes = tool({
  name: 'search_recipes',
  title: 'Search recipes',
  description: "Finds the household's recipes by a word of the title, an ingredient or a tag.",
  writes: false,
  input: v.object({
    query: v.pipe(v.string(), v.maxLength(100), v.description('A word of the title, an ingredient or a tag')),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(SEARCH_LIMIT_MAX)), 10),
  }),
  async run(deps, caller, input) {
    const page = valueOf(await listRecipeSummaries(deps, caller.account, caller.householdId, { q: input.query.trim(), cursor: null, limit: input.limit }));
    const recipes = page.items.map((r) => ({ id: r.id, title: r.title, totalMinutes: r.totalMinutes, servings: r.servings, tags: r.tags }));
    const text = recipes.length === 0 ? `No recipe matches "${input.query}".` : recipes.map((r) => `${r.title}${r.totalMinutes ? ` (${r.totalMinutes} min)` : ''} [${r.id}]`).join('\n');
    return { text, data: { recipes } };
  },
});

/** Every tool, in the order an assistant lists them. */
export const TOOLS: readonly Tool<never>[] = [todaysDinner, weekDinners, shoppingList, addToList, tickLine, planDinner, suggest, searchRecipes] as unknown as readonly Tool<never>[];
