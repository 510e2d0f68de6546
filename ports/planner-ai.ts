import type { Language } from '../core/households/types.js';
import type { IsoDate } from '../core/kernel/dates.js';
import type { HouseholdId } from '../core/kernel/ids.js';

/** One proposed dinner the planner asks the AI to write serving notes and tips for. */
export interface AiDinner {
  readonly date: IsoDate;
  readonly recipeTitle: string;
  /** The dish's ingredients, bases included, as the recipes write them. */
  readonly ingredients: readonly string[];
  /** The guests' avoids that bind the whole table that day (a tip naming one of them is never shown). */
  readonly avoids: readonly string[];
  readonly portions: number;
  /** The cooking time the day leaves, when it is limited. */
  readonly cookingMinutes: number | null;
}

/**
 * The optional AI the operator configures (an OpenAI-compatible endpoint): for the
 * week's proposed dinners, a few short serving notes or tips per day, in the household's language. Any failure
 * (unreachable, a timeout, an answer that is not what was asked) throws: the planner then writes its notes by
 * rule. What it answers is text for people and is checked against the day's avoids before it is shown.
 */
export interface PlannerAi {
  servingTips(request: { readonly language: Language; readonly dinners: readonly AiDinner[] }): Promise<ReadonlyMap<IsoDate, readonly string[]>>;
}

/** What a household may still ask of the AI: a call is counted, or why not. */
export type AiAllowance = { readonly allowed: true } | { readonly allowed: false; readonly why: 'quota-used' } | { readonly allowed: false; readonly why: 'paused'; readonly until: Date };

/** Each household's AI calls per month (its quota) and the operator's pause of a household's AI. */
export interface AiQuotaStore {
  /**
   * Counts one call in the household's `month` (`YYYY-MM`) unless the household's AI is paused at `now` or the
   * month already holds `limit` calls; atomic, so concurrent callers never pass the limit together.
   */
  take(householdId: HouseholdId, month: string, limit: number, now: Date): Promise<AiAllowance>;
  /** Calls counted in the household's month. */
  used(householdId: HouseholdId, month: string): Promise<number>;
  /** Pauses the household's AI until `until` (null: lifts a pause). */
  pause(householdId: HouseholdId, until: Date | null): Promise<void>;
  /** The end of the household's pause, or null when none is in force (one that ended is none). */
  pausedUntil(householdId: HouseholdId, now: Date): Promise<Date | null>;
}
