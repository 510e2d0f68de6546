import type { HouseholdId } from '../core/kernel/ids.js';

/** The days of the week, as a rule names them (core/plans/dinner-rules.ts WEEKDAYS, Monday first). */
export type Weekday = 'Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday' | 'Sunday';

/** A dinner rule's kind and fields (what each kind says: core/plans/dinner-rules.ts). */
export type DinnerRuleSpec =
  | { readonly kind: 'FixedDish'; readonly weekday: Weekday; readonly recipeId: string }
  | { readonly kind: 'TagPerWeek'; readonly tag: string; readonly timesPerWeek: number }
  | { readonly kind: 'Spacing'; readonly days: number; readonly recipeId: string | null };

export type DinnerRule = DinnerRuleSpec & {
  readonly id: string;
  readonly householdId: HouseholdId;
  readonly createdAt: Date;
  readonly updatedAt: Date;
};

/** Why the store did not write a rule: the household has its most already, or its weekday holds a fixed dish. */
export type DinnerRuleRefusal = 'dinner-rule-limit' | 'dinner-rule-weekday-taken';

/**
 * A household's dinner rules (core/plans/dinner-rules.ts). They go with the household; a rule that names a recipe
 * goes with that recipe. At most one FixedDish rule per weekday, which the store holds even against concurrent writes.
 */
export interface DinnerRuleStore {
  /** The household's rules, oldest first (then by id). */
  list(householdId: HouseholdId): Promise<DinnerRule[]>;
  /** Adds the rule unless the household has `max` rules already, or its weekday holds a fixed dish. */
  add(rule: DinnerRule, max: number): Promise<DinnerRule | { readonly refused: DinnerRuleRefusal }>;
  /** Writes the rule's kind and fields anew (keeping its id and createdAt); null when it is not the household's. */
  replace(householdId: HouseholdId, ruleId: string, spec: DinnerRuleSpec, at: Date): Promise<DinnerRule | null | { readonly refused: 'dinner-rule-weekday-taken' }>;
  /** Removes the rule; false when it is not the household's. */
  remove(householdId: HouseholdId, ruleId: string): Promise<boolean>;
}
