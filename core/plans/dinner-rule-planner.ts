import type { DinnerRuleStore } from '../../ports/dinner-rule-store.js';
import type { PlanRow, PlanStore } from '../../ports/plan-store.js';
import { avoidsOfDay, dishConflict } from '../events/avoid-gate.js';
import type { MealEventReader } from '../../ports/meal-event-store.js';
import { deriveDay } from '../events/portions.js';
import type { HouseholdWithMembers } from '../households/types.js';
import { addDays, dateIn, daysBetween, type IsoDate } from '../kernel/dates.js';
import { fnv1a32 } from '../kernel/seeded.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import { recipesReaching } from '../recipes/reaching.js';
import { avoidGate, daySeed, fitsTime, planWeek, type PlannedDay, type PlannerCandidate, type PlannerDay, type PlannerInput, type SuggestionReason } from './planner.js';
import { ruleView, WEEKDAYS, weekdayOf, type DinnerRule, type DinnerRuleView } from './dinner-rules.js';
import type { Recipe } from '../recipes/types.js';

type Fixed = Extract<DinnerRule, { kind: 'FixedDish' }>;
type ByTag = Extract<DinnerRule, { kind: 'TagPerWeek' }>;
type Spacing = Extract<DinnerRule, { kind: 'Spacing' }>;

/** A rule that shaped a day's dish: which one, and for a TagPerWeek rule which of its dishes this is (nth of `of`). */
export interface RuleMention {
  readonly rule: DinnerRule;
  readonly nth: number | null;
  readonly of: number | null;
}

/** A planned day, with the rule that shaped it (reason Rule), or that kept every fitting dish away (RuleNotServed). */
export interface RuledDay extends PlannedDay {
  readonly rule: RuleMention | null;
}

/**
 * Why the week cannot serve a rule:
 * - DayClosed: the fixed dish's day is closed (nobody eats at home);
 * - BreaksAvoids: the fixed dish breaks an avoid of that day's guests;
 * - NotADish: the fixed dish is not among the dishes the planner may propose (it is another recipe's base);
 * - NoTaggedDish: no dish with the tag fits any open day (the avoids, the cooking time, the spacing rules);
 * - TooFewDays: not enough open days left for the tag's count.
 */
export const RULE_NOT_SERVED_WHYS = ['DayClosed', 'BreaksAvoids', 'NotADish', 'NoTaggedDish', 'TooFewDays'] as const;
export type RuleNotServedWhy = (typeof RULE_NOT_SERVED_WHYS)[number];

export interface RuleNotServed {
  readonly rule: DinnerRule;
  readonly why: RuleNotServedWhy;
  /** The day of a fixed dish; null for a tag's count. */
  readonly date: IsoDate | null;
  /** How many dishes of the rule the week holds with the proposal, and how many it wants. */
  readonly served: number;
  readonly wanted: number;
}

export interface RuleContext {
  readonly rules: readonly DinnerRule[];
  /** The tags of the household's recipes, by id (library dishes have none). */
  readonly tagsOf: ReadonlyMap<string, readonly string[]>;
  /** Days known to hold a dish: the weeks before, and this week's days not being filled (kept ones too). */
  readonly dated: readonly { readonly date: IsoDate; readonly recipeId: string }[];
  /** Days of the week asked for that nobody eats at home (a fixed dish there is said not served). */
  readonly closed: readonly IsoDate[];
}

export interface RuledWeek {
  readonly days: RuledDay[];
  readonly notServed: RuleNotServed[];
}

/** How the days no rule claims are filled: the planner's input for them, and the dishes the rules put on the week. */
export type FillDays = (input: PlannerInput, picked: readonly { readonly date: IsoDate; readonly id: string }[]) => PlannedDay[];

const byDate = <T extends { readonly date: IsoDate }>(a: T, b: T) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/**
 * planWeek under the household's rules. Fixed dishes first (on their weekday, unless its guests' avoids rule the dish
 * out), then each TagPerWeek rule's missing count on the open days where a tagged dish fits (chosen by the seed), then
 * the rest as planWeek fills it; no dish is ever proposed within a Spacing rule's days of another day it is on. With no
 * rules the answer is planWeek's. The days no rule claims are filled by `fill` (planWeek, or the planner with
 * leftovers, told the dishes the rules put on the week so that they too may be cooked double); under a Spacing rule
 * they are filled one at a time by planWeek, so that no dish comes back too soon.
 */
export function planWeekWithRules(input: PlannerInput, ctx: RuleContext, fill: FillDays = planWeek): RuledWeek {
  if (ctx.rules.length === 0) return { days: fill(input, []).map((d) => ({ ...d, rule: null })), notServed: [] };
  const state = new WeekState(input, ctx, fill);
  const open = state.fixedDays(ctx.rules.filter((r): r is Fixed => r.kind === 'FixedDish'), ctx.closed);
  let rest = open;
  for (const rule of ctx.rules) if (rule.kind === 'TagPerWeek') rest = state.tagDays(rule, rest);
  state.restDays(rest);
  return { days: [...state.out].sort(byDate), notServed: state.notServed };
}

/** The week being planned under rules: what is picked so far, and what the rules say of it. */
class WeekState {
  readonly out: RuledDay[] = [];
  readonly notServed: RuleNotServed[] = [];
  private readonly taken: string[];
  private readonly dated: { date: IsoDate; recipeId: string }[];
  private readonly spacing: readonly Spacing[];
  private readonly gates = new Map<string, (c: PlannerCandidate) => boolean>();

  constructor(
    private readonly input: PlannerInput,
    private readonly ctx: RuleContext,
    private readonly fill: FillDays,
  ) {
    this.taken = [...input.taken];
    this.dated = [...ctx.dated];
    this.spacing = ctx.rules.filter((r): r is Spacing => r.kind === 'Spacing');
  }

  private gate(avoids: readonly string[]) {
    const key = avoids.map((a) => a.toLowerCase()).join('\u0000');
    let g = this.gates.get(key);
    if (!g) this.gates.set(key, (g = avoids.length === 0 ? () => true : avoidGate(avoids)));
    return g;
  }

  /** The hard rules of the day: its avoids and its cooking time. */
  private fits(day: PlannerDay) {
    const gate = this.gate(day.avoids);
    return (c: PlannerCandidate) => fitsTime(c, day.limitMinutes) && gate(c);
  }

  /** The first Spacing rule the dish would break on `date`, or null. */
  spacingBroken(recipeId: string, date: IsoDate): Spacing | null {
    for (const rule of this.spacing) {
      if (rule.recipeId !== null && rule.recipeId !== recipeId) continue;
      if (this.dated.some((d) => d.recipeId === recipeId && d.date !== date && Math.abs(daysBetween(d.date, date)) < rule.days)) return rule;
    }
    return null;
  }

  private keep(day: RuledDay) {
    this.out.push(day);
    if (day.pick) {
      this.taken.push(day.pick.id);
      this.dated.push({ date: day.date, recipeId: day.pick.id });
    }
  }

  /** Puts each fixed dish on its day; answers the open days left. */
  fixedDays(rules: readonly Fixed[], closed: readonly IsoDate[]): PlannerDay[] {
    const rest: PlannerDay[] = [];
    for (const date of closed) {
      const rule = rules.find((r) => r.weekday === weekdayOf(date));
      if (rule) this.notServed.push({ rule, why: 'DayClosed', date, served: 0, wanted: 1 });
    }
    for (const day of this.input.days) {
      const rule = rules.find((r) => r.weekday === weekdayOf(day.date));
      if (!rule) {
        rest.push(day);
        continue;
      }
      const c = this.input.candidates.find((x) => x.id === rule.recipeId);
      const why = !c ? 'NotADish' : !this.gate(day.avoids)(c) ? 'BreaksAvoids' : null;
      if (why !== null || !c) {
        this.notServed.push({ rule, why: why ?? 'NotADish', date: day.date, served: 0, wanted: 1 });
        rest.push(day);
        continue;
      }
      const reasons: SuggestionReason[] = ['Rule'];
      if (day.avoids.length > 0) reasons.push('AvoidsRespected');
      if (day.limitMinutes !== null && fitsTime(c, day.limitMinutes)) reasons.push('FitsCookingTime');
      this.keep({ date: day.date, pick: c, reasons, pantryFoods: [], rule: { rule, nth: null, of: null } });
    }
    return rest;
  }

  /** The tagged dishes that fit the day under every rule. */
  private taggedFor(rule: ByTag, day: PlannerDay): PlannerCandidate[] {
    const fits = this.fits(day);
    return this.input.candidates.filter((c) => (this.ctx.tagsOf.get(c.id) ?? []).includes(rule.tag) && fits(c) && this.spacingBroken(c.id, day.date) === null);
  }

  /** Fills the rule's missing count on the open days where a tagged dish fits; answers the days left. */
  tagDays(rule: ByTag, days: readonly PlannerDay[]): PlannerDay[] {
    const tagged = (id: string) => (this.ctx.tagsOf.get(id) ?? []).includes(rule.tag);
    let have = this.taken.filter(tagged).length;
    if (have >= rule.timesPerWeek) return [...days];
    // Which of the fitting days get the tag: a draw by the seed, so that another seed may move them; one at a time,
    // since each dish placed may keep the same dish off the days near it (Spacing).
    const draw = (d: PlannerDay) => fnv1a32(`${daySeed(this.input.seed, d.date)}/${rule.id}`);
    const chosen = new Set<IsoDate>();
    const placed: PlannedDay[] = [];
    let fitted = false;
    while (have + placed.length < rule.timesPerWeek) {
      const fitting = days.filter((d) => !chosen.has(d.date) && this.taggedFor(rule, d).length > 0);
      const day = fitting.sort((a, b) => draw(a) - draw(b) || byDate(a, b))[0];
      if (!day) break;
      fitted = true;
      chosen.add(day.date);
      const [planned] = planWeek({ ...this.input, days: [day], candidates: this.taggedFor(rule, day), taken: this.taken });
      placed.push(planned!);
      // Kept now, so that the next day chosen sees it (Spacing, repeats); counted below in date order.
      this.taken.push(planned!.pick!.id);
      this.dated.push({ date: day.date, recipeId: planned!.pick!.id });
    }
    for (const planned of placed.sort(byDate)) {
      have++;
      this.out.push({ ...planned, reasons: ['Rule', ...planned.reasons], rule: { rule, nth: have, of: rule.timesPerWeek } });
    }
    if (have < rule.timesPerWeek) this.notServed.push({ rule, why: fitted ? 'TooFewDays' : 'NoTaggedDish', date: null, served: have, wanted: rule.timesPerWeek });
    return days.filter((d) => !chosen.has(d.date));
  }

  /** The other days as planWeek fills them; under Spacing rules one day at a time, the most constrained first. */
  restDays(days: readonly PlannerDay[]): void {
    if (this.spacing.length === 0) {
      const picked = this.out.flatMap((d) => (d.pick ? [{ date: d.date, id: d.pick.id }] : []));
      for (const d of this.fill({ ...this.input, days, taken: this.taken }, picked)) this.keep({ ...d, rule: null });
      return;
    }
    const count = (d: PlannerDay) => this.input.candidates.filter(this.fits(d)).length;
    const counts = new Map(days.map((d) => [d.date, count(d)]));
    for (const day of [...days].sort((a, b) => counts.get(a.date)! - counts.get(b.date)! || byDate(a, b))) {
      const fitting = this.input.candidates.filter(this.fits(day));
      const spaced = fitting.filter((c) => this.spacingBroken(c.id, day.date) === null);
      if (fitting.length > 0 && spaced.length === 0) {
        this.keep({ date: day.date, pick: null, reasons: ['RuleNotServed'], pantryFoods: [], rule: { rule: this.spacingBroken(fitting[0]!.id, day.date)!, nth: null, of: null } });
        continue;
      }
      const [planned] = planWeek({ ...this.input, days: [day], candidates: fitting.length === 0 ? this.input.candidates : spaced, taken: this.taken });
      this.keep({ ...planned!, rule: null });
    }
  }
}

/** What opening a week with its fixed dinners reads. */
export interface OpeningDeps {
  plans: PlanStore;
  dinnerRules: DinnerRuleStore;
  events: MealEventReader;
  recipes: Pick<RecipeStore, 'byIds'>;
  clock: { now(): Date };
}

/**
 * A week's plan just made gets each FixedDish rule's dish on its weekday: from today on (in the household's time
 * zone; a past day is not claimed), on days someone eats at home, where the dish breaks no avoid of the day's
 * guests. Closed days and avoids win over the rules; a week that had a plan already is never changed by this.
 */
export async function openWithFixedDinners(deps: OpeningDeps, household: HouseholdWithMembers, plan: PlanRow): Promise<PlanRow> {
  const rules = (await deps.dinnerRules.list(household.id)).filter((r): r is Fixed => r.kind === 'FixedDish');
  if (rules.length === 0) return plan;
  const today = dateIn(household.timeZoneId, deps.clock.now());
  const [recipes, events] = await Promise.all([recipesReaching(deps, household.id, rules.map((r) => r.recipeId)), deps.events.eventsBetween(household.id, plan.weekStart, addDays(plan.weekStart, 6))]);
  const dishes = rules.flatMap((r) => {
    const date = addDays(plan.weekStart, WEEKDAYS.indexOf(r.weekday));
    const dayEvents = events.filter((e) => e.date === date);
    const recipe = recipes.get(r.recipeId);
    if (date < today || !recipe || !deriveDay(household.members, dayEvents).cookedAtHome) return [];
    return dishConflict(recipe, recipes, avoidsOfDay(dayEvents), date) ? [] : [{ date, recipeId: r.recipeId }];
  });
  if (dishes.length === 0) return plan;
  const written = await deps.plans.setDishes(household.id, plan.id, dishes, deps.clock.now(), null);
  return 'refused' in written ? plan : written;
}

/** A rule as a proposed day names it: the rule, and for a TagPerWeek rule which of its dishes this is. */
export interface DayRuleView extends DinnerRuleView {
  readonly nth: number | null;
  readonly of: number | null;
}

/** A rule the proposed week cannot serve, as answered. */
export interface RuleNotServedView {
  readonly rule: DinnerRuleView;
  readonly why: RuleNotServedWhy;
  readonly date: IsoDate | null;
  readonly served: number;
  readonly wanted: number;
}

/**
 * What the planner needs of the rules for one week: the household's recipes' tags, and the days known to hold a
 * dish (the weeks read before, the week's days not being filled, the dishes kept), and the closed days asked for.
 */
export function ruleContext(
  rules: readonly DinnerRule[],
  recipes: readonly Pick<Recipe, 'id' | 'tags'>[],
  dated: readonly { readonly date: IsoDate; readonly recipeId: string | null }[],
  closed: readonly IsoDate[],
): RuleContext {
  return {
    rules,
    tagsOf: new Map(recipes.map((r) => [r.id, r.tags])),
    dated: dated.filter((d): d is { date: IsoDate; recipeId: string } => d.recipeId !== null),
    closed,
  };
}

/** The views of what the rules said of a proposed week, the rules' recipes named by the household's titles. */
export function ruleViewsOf(week: RuledWeek, recipes: readonly Pick<Recipe, 'id' | 'title'>[]) {
  const titles = Object.fromEntries(recipes.map((r) => [r.id, r.title]));
  const byDate = new Map(week.days.map((d) => [d.date, d.rule === null ? null : { ...ruleView(d.rule.rule, titles), nth: d.rule.nth, of: d.rule.of }]));
  const notServed: RuleNotServedView[] = week.notServed.map((n) => ({ rule: ruleView(n.rule, titles), why: n.why, date: n.date, served: n.served, wanted: n.wanted }));
  return { dayRule: (date: IsoDate): DayRuleView | null => byDate.get(date) ?? null, notServed };
}
