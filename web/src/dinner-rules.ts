import { signal } from '@preact/signals';
import { api, dataOf, type DinnerRule } from './api';
import { t, type RuleWords } from './i18n';

/** The service's weekdays, Monday first, as the rules name them. */
export const RULE_WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type RuleWeekday = (typeof RULE_WEEKDAYS)[number];

/** A weekday of a rule as the catalogue words it (its weekdays start on Sunday). */
export const weekdayWord = (w: RuleWeekday): string => t.value.weekdays[(RULE_WEEKDAYS.indexOf(w) + 1) % 7] ?? w;

/** A rule (as the service answers it) as the sentences need it. */
export function ruleWords(r: Pick<DinnerRule, 'kind' | 'weekday' | 'recipeTitle' | 'tag' | 'timesPerWeek' | 'days'>): RuleWords {
  return { kind: r.kind, weekday: r.weekday === null ? '' : weekdayWord(r.weekday), dish: r.recipeTitle, tag: r.tag ?? '', timesPerWeek: r.timesPerWeek ?? 0, days: r.days ?? 0 };
}

/** The household's rules as last read (null: not read yet, or not readable now), and whose they are. */
export const dinnerRules = signal<{ householdId: string; rules: readonly DinnerRule[] } | null>(null);
let reading: { householdId: string; done: Promise<void> } | null = null;

/** Reads the household's rules once (again with `fresh`, after a change); a failure leaves what was read. */
export function loadDinnerRules(householdId: string, fresh = false): Promise<void> {
  if (!fresh && reading?.householdId === householdId) return reading.done;
  const done = dataOf(api.GET('/api/v1/households/{householdId}/dinner-rules', { params: { path: { householdId } } })).then(
    (list) => void (dinnerRules.value = { householdId, rules: list.rules }),
    () => undefined,
  );
  reading = { householdId, done };
  return done;
}

/** The FixedDish rule whose dish a day holds on its weekday, if any. */
export function fixedRuleOf(householdId: string, day: { date: string; recipeId: string | null }): DinnerRule | null {
  const read = dinnerRules.value;
  if (!read || read.householdId !== householdId || day.recipeId === null) return null;
  const w = RULE_WEEKDAYS[(new Date(`${day.date}T00:00:00Z`).getUTCDay() + 6) % 7];
  return read.rules.find((r) => r.kind === 'FixedDish' && r.weekday === w && r.recipeId === day.recipeId) ?? null;
}
