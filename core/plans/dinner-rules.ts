import type { Clock } from '../../ports/clock.js';
import type { DinnerRule, DinnerRuleSpec, DinnerRuleStore, Weekday } from '../../ports/dinner-rule-store.js';

export type { DinnerRule, DinnerRuleSpec, Weekday };
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import { daysBetween, weekStartOf, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { recipeTag } from '../recipes/tags.js';

/**
 * The household's dinner rules, three kinds:
 * - FixedDish: one dish on one weekday ("taco on Fridays"); a new week opens with it there, and the planner keeps it;
 * - TagPerWeek: dishes with a tag a number of times a week ("fish twice a week"), which the planner fills in where
 *   the days allow;
 * - Spacing: a dish not again within `days` days: one recipe's (recipeId), or, with recipeId null, every dish's.
 *   The planner never proposes a dish this close to a day the dish was (or is) on a plan; a fixed dish is not kept
 *   away by it (the household said that day's dish itself).
 * Closed days (nobody eats at home) and the avoids of the day's guests always win over every rule.
 */
export const DINNER_RULE_KINDS = ['FixedDish', 'TagPerWeek', 'Spacing'] as const;
export type DinnerRuleKind = (typeof DINNER_RULE_KINDS)[number];

/** The days of the week, as a rule names them, Monday first (a plan's week starts on Monday). */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const satisfies readonly Weekday[];

/** The bounds of a household's rules. */
export const DINNER_RULE_LIMITS = {
  /** Rules a household keeps. */
  rules: 20,
  /** A TagPerWeek rule's times per week. */
  timesPerWeekMin: 1,
  timesPerWeekMax: 7,
  /** A Spacing rule's days: 2 (not on two days running) to 60. */
  spacingDaysMin: 2,
  spacingDaysMax: 60,
  /** A tag's characters (as recipes keep them). */
  tagMax: 32,
} as const;

/** A rule as answered: every kind's fields, those of other kinds null, with the title of the recipe it names. */
export interface DinnerRuleView {
  readonly id: string;
  readonly kind: DinnerRuleKind;
  readonly weekday: Weekday | null;
  readonly recipeId: string | null;
  readonly recipeTitle: string | null;
  readonly tag: string | null;
  readonly timesPerWeek: number | null;
  readonly days: number | null;
  readonly createdAt: Date;
}

export interface DinnerRuleList {
  readonly rules: readonly DinnerRuleView[];
  /** The most rules a household keeps. */
  readonly max: number;
}

export interface DinnerRuleDeps {
  households: HouseholdStore;
  dinnerRules: DinnerRuleStore;
  recipes: Pick<RecipeStore, 'titlesOf' | 'tagCounts'>;
  ids: IdGenerator;
  clock: Clock;
}

/** The weekday of a date. */
export const weekdayOf = (date: IsoDate): Weekday => WEEKDAYS[daysBetween(weekStartOf(date), date)]!;

/** The recipe a rule names, if any. */
export const ruleRecipeId = (r: DinnerRuleSpec): string | null => (r.kind === 'TagPerWeek' ? null : r.recipeId);

/** A rule as answered, given the titles of the household's recipes among those it names. */
export function ruleView(r: DinnerRule, titles: Readonly<Record<string, string>>): DinnerRuleView {
  const recipeId = ruleRecipeId(r);
  return {
    id: r.id,
    kind: r.kind,
    weekday: r.kind === 'FixedDish' ? r.weekday : null,
    recipeId,
    recipeTitle: recipeId === null ? null : (titles[recipeId] ?? null),
    tag: r.kind === 'TagPerWeek' ? r.tag : null,
    timesPerWeek: r.kind === 'TagPerWeek' ? r.timesPerWeek : null,
    days: r.kind === 'Spacing' ? r.days : null,
    createdAt: r.createdAt,
  };
}

/** The views of rules, their recipes' titles read once. */
export async function ruleViews(deps: Pick<DinnerRuleDeps, 'recipes'>, householdId: HouseholdId, rules: readonly DinnerRule[]): Promise<DinnerRuleView[]> {
  const ids = [...new Set(rules.map(ruleRecipeId).filter((r): r is string => r !== null))];
  const titles = ids.length === 0 ? {} : await deps.recipes.titlesOf(householdId, ids);
  return rules.map((r) => ruleView(r, titles));
}

type RuleRefusal = ErrorOf<'household-not-found' | 'adults-only' | 'dinner-rule-recipe-unknown' | 'dinner-rule-tag-unknown'>;

/** The spec in its stored form (the tag in tag form), checked against the household's recipes and tags. */
async function checked(deps: DinnerRuleDeps, householdId: HouseholdId, spec: DinnerRuleSpec): Promise<Result<DinnerRuleSpec, RuleRefusal>> {
  const recipeId = ruleRecipeId(spec);
  if (recipeId !== null) {
    const titles = await deps.recipes.titlesOf(householdId, [recipeId]);
    if (titles[recipeId] === undefined) return fail({ type: 'dinner-rule-recipe-unknown', recipeId });
  }
  if (spec.kind !== 'TagPerWeek') return ok(spec);
  const tag = recipeTag(spec.tag);
  const known = await deps.recipes.tagCounts(householdId);
  if (!known.some((t) => t.tag === tag)) return fail({ type: 'dinner-rule-tag-unknown', tag });
  return ok({ ...spec, tag });
}

/** What a write of a rule checks first: the caller is an adult of the household, and the spec holds there. */
async function adultsSpec(deps: DinnerRuleDeps, caller: Account, householdId: HouseholdId, spec: DinnerRuleSpec): Promise<Result<DinnerRuleSpec, RuleRefusal>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  return adult.ok ? checked(deps, householdId, spec) : adult;
}

/** GET dinner-rules (any member, Junior too): the household's rules, oldest first. */
export async function listDinnerRules(deps: DinnerRuleDeps, caller: Account, householdId: HouseholdId): Promise<Result<DinnerRuleList, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  return ok({ rules: await ruleViews(deps, householdId, await deps.dinnerRules.list(householdId)), max: DINNER_RULE_LIMITS.rules });
}

/** POST dinner-rules (adults): a new rule. Weeks that have a plan already are not changed. */
export async function addDinnerRule(
  deps: DinnerRuleDeps,
  caller: Account,
  householdId: HouseholdId,
  spec: DinnerRuleSpec,
): Promise<Result<DinnerRuleView, RuleRefusal | ErrorOf<'dinner-rule-limit' | 'dinner-rule-weekday-taken'>>> {
  const good = await adultsSpec(deps, caller, householdId, spec);
  if (!good.ok) return good;
  const at = deps.clock.now();
  const added = await deps.dinnerRules.add({ ...good.value, id: deps.ids.newId(), householdId, createdAt: at, updatedAt: at }, DINNER_RULE_LIMITS.rules);
  if ('refused' in added) return fail(added.refused === 'dinner-rule-limit' ? { type: added.refused, max: DINNER_RULE_LIMITS.rules } : { type: added.refused });
  return ok((await ruleViews(deps, householdId, [added]))[0]!);
}

/** PUT dinner-rules/{ruleId} (adults): the rule written anew, of any kind. */
export async function replaceDinnerRule(
  deps: DinnerRuleDeps,
  caller: Account,
  householdId: HouseholdId,
  ruleId: string,
  spec: DinnerRuleSpec,
): Promise<Result<DinnerRuleView, RuleRefusal | ErrorOf<'dinner-rule-not-found' | 'dinner-rule-weekday-taken'>>> {
  const good = await adultsSpec(deps, caller, householdId, spec);
  if (!good.ok) return good;
  const written = await deps.dinnerRules.replace(householdId, ruleId, good.value, deps.clock.now());
  if (written === null) return fail({ type: 'dinner-rule-not-found' });
  if ('refused' in written) return fail({ type: written.refused });
  return ok((await ruleViews(deps, householdId, [written]))[0]!);
}

/** DELETE dinner-rules/{ruleId} (adults). Plans the rule shaped keep their dishes. */
export async function removeDinnerRule(deps: DinnerRuleDeps, caller: Account, householdId: HouseholdId, ruleId: string): Promise<Result<void, ErrorOf<'household-not-found' | 'adults-only' | 'dinner-rule-not-found'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  return (await deps.dinnerRules.remove(householdId, ruleId)) ? ok(undefined) : fail({ type: 'dinner-rule-not-found' });
}
