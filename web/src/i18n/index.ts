import { dayName } from '../format';
import { t } from './language';

export { language, locale, setLanguage, t, type Language } from './language';
export type { Messages, ReasonFacts, RuleNotServedWhy, RuleWords } from './nb';

/** A sentence for a failed call, chosen by its problem code (never the service's English detail). */
export function sentenceFor(err: unknown): string {
  const m = t.value;
  const status = (err as { status?: number }).status ?? 0;
  const code = (err as { code?: string | null }).code ?? null;
  const extra = (err as { extra?: Record<string, unknown> }).extra ?? {};
  if (code === 'avoid_conflict' && typeof extra['avoid'] === 'string') {
    const date = typeof extra['date'] === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(extra['date']) ? dayName(extra['date']) : null;
    return m.avoidConflict(String(extra['recipeTitle']), String(extra['ingredient']), extra['avoid'], date);
  }
  if (code === 'password_guessable' && typeof extra['reason'] === 'string') return m.passwordGuessable(extra['reason']);
  if (code && m.problem[code]) return m.problem[code]!;
  return m.problemByStatus(status);
}
