import type { DaySuggestion, SuggestionReason } from '../../api';
import { dayName, kroner, together, weekday } from '../../format';
import { t, type ReasonFacts } from '../../i18n';
import { Problem } from '../../ui';
import { ruleWords } from '../../dinner-rules';
import { weeksBetween } from './dates';
import { ServingNotes } from './serving-notes';

/** The reasons that warn: the dish was the best one left, but breaks a soft rule. */
const WARNINGS: ReadonlySet<SuggestionReason> = new Set(['Disliked', 'EatenLately', 'RepeatsThisWeek']);

/** A proposed day as shown: the service's answer, whether saving takes it, and the seed it was drawn with. */
export interface Shown {
  readonly day: DaySuggestion;
  readonly include: boolean;
  readonly seed: number;
  /** "Another one" came back with the same dish (nothing else fits). */
  readonly same: boolean;
}

/** One proposed day: its dish and why, left in or out of what is saved, and drawn again on "another one". */
export function SuggestedDay({ shown, changing, error, onAnother, onInclude }: { shown: Shown; changing: string | null; error: unknown; onAnother: () => void; onInclude: (on: boolean) => void }) {
  const m = t.value;
  const d = shown.day;
  const name = dayName(d.date);
  const id = `suggest-${d.date}`;
  const facts: ReasonFacts = {
    recipeMinutes: d.recipeMinutes,
    cookingMinutes: d.cookingMinutes,
    foods: together(d.pantryFoods),
    // How long ago, counted from the day proposed (the service's dates, not this device's clock).
    weeksSinceEaten: d.lastEatenOn === null ? null : weeksBetween(d.lastEatenOn, d.date),
    timesEaten: d.timesEaten,
    historyWeeks: d.historyWeeks,
    leftoversDay: d.leftoversOf === null ? null : weekday(d.leftoversOf),
    rule: d.rule === null ? null : { words: ruleWords(d.rule), nth: d.rule.nth, of: d.rule.of },
  };
  // Typed by the service's own reason codes: a code with no sentence fails the build.
  const sentences: Record<SuggestionReason, (f: ReasonFacts) => string> = m.reason;
  const about = [m.portions(d.portions), d.recipeMinutes !== null ? m.minutes(d.recipeMinutes) : null, d.estimatedPrice !== null ? m.aboutPrice(kroner(d.estimatedPrice)) : null].filter((x) => x !== null);
  return (
    <li class={d.recipeId !== null && !shown.include ? 'suggested-day left-out' : 'suggested-day'} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{name}</h3>
      {/* Read out when "another one" changes the day. */}
      <div aria-live="polite">
        <p class={d.recipeId === null ? 'dish none' : 'dish'}>{d.recipeTitle !== null && d.leftoversOf !== null ? m.leftoversOf(d.recipeTitle, weekday(d.leftoversOf)) : (d.recipeTitle ?? m.noDishFits)}</p>
        {shown.same && <p class="muted">{m.sameDishAgain}</p>}
      </div>
      {d.recipeId !== null && <p class="muted">{about.join(' · ')}</p>}
      {d.reasons.length > 0 && (
        <ul class="reasons" aria-label={m.whyThisDish(name)}>
          {d.reasons.map((r) => (
            <li key={r} class={WARNINGS.has(r) ? 'warn' : undefined}>
              {sentences[r](facts)}
            </li>
          ))}
        </ul>
      )}
      <ServingNotes notes={d.servingNotes} />
      {d.recipeId !== null && (
        <div class="row suggested-day-actions">
          <label class="check">
            <input type="checkbox" checked={shown.include} aria-label={m.includeDay(name)} onChange={(e) => onInclude(e.currentTarget.checked)} />
            {m.include}
          </label>
          {/* aria-disabled, not disabled: the button keeps the focus while its day is drawn again. */}
          <button type="button" class="secondary" aria-label={m.anotherOneFor(name)} aria-disabled={changing !== null} onClick={onAnother}>
            {changing === d.date ? m.loading : m.anotherOne}
          </button>
        </div>
      )}
      <Problem error={error} />
    </li>
  );
}
