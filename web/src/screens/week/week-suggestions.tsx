import { useEffect, useRef } from 'preact/hooks';
import { kroner } from '../../format';
import { sentenceFor, t } from '../../i18n';
import { Problem } from '../../ui';
import { NoRecipesYet } from './no-recipes-yet';
import { SuggestedDay } from './suggested-day';
import { useWeekSuggestions } from './use-week-suggestions';
import { RulesNotServed } from './rules-not-served';

/**
 * "Suggest the week" (adults): the planner's proposal for the days without a dish, nothing written until "Save the
 * week". Each day can be drawn again ("another one") or left out; the reasons are the service's, said as sentences.
 */
export function WeekSuggestions({ householdId, planId, onSaved, onClose }: { householdId: string; planId: string; onSaved: () => void; onClose: () => void }) {
  const m = t.value;
  const s = useWeekSuggestions(householdId, planId, onSaved);
  const { days, prices, load, save } = s;
  // No recipe to suggest from at all: said once, with the ways to get recipes, not on every day.
  const noRecipes = days !== null && days.length > 0 && days.every((x) => x.day.recipeId === null && x.day.reasons.includes('NoRecipes'));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [householdId, planId]);
  return (
    <section class="suggestions" aria-labelledby="suggest-h" aria-busy={load.busy}>
      <h2 id="suggest-h" tabIndex={-1} ref={heading}>
        {m.suggestionsTitle}
      </h2>
      <p class="muted suggest-note" role="status">
        {s.aiRefused ? sentenceFor(s.aiRefused) : ''}
      </p>
      <Problem error={load.error} />
      {days === null ? (
        load.busy && <p>{m.loading}</p>
      ) : days.length === 0 ? (
        <p>{m.nothingToSuggest}</p>
      ) : noRecipes ? (
        <NoRecipesYet householdId={householdId} onLibraryOn={() => void s.propose()} />
      ) : (
        <>
          <p class="muted">{m.suggestionsAbout}</p>
          <ol class="suggested-days">
            {days.map((x) => (
              <SuggestedDay
                key={x.day.date}
                shown={x}
                changing={s.changing}
                error={s.dayError?.date === x.day.date ? s.dayError.error : null}
                onAnother={() => void s.another(x)}
                onInclude={(on) => s.include(x.day.date, on)}
              />
            ))}
          </ol>
          {(prices.estimated !== null || prices.usual !== null) && (
            <ul class="week-prices">
              {prices.estimated !== null && <li>{m.suggestedPrice(kroner(prices.estimated), prices.priced, prices.dishes)}</li>}
              {prices.usual !== null && <li>{m.usualPrice(kroner(prices.usual))}</li>}
            </ul>
          )}
          <RulesNotServed notes={s.rulesNotServed} />
          {s.aiNotes && <p class="muted">{m.aiWrote}</p>}
        </>
      )}
      <Problem error={save.error} />
      {s.noneIncluded && (
        <p class="problem" role="alert">
          {m.nothingIncluded}
        </p>
      )}
      <div class="row suggest-actions">
        {days !== null && days.length > 0 && !noRecipes && (
          <button type="button" disabled={save.busy || s.changing !== null} onClick={() => void s.saveWeek()}>
            {m.saveWeek}
          </button>
        )}
        {load.error !== null && (
          <button type="button" disabled={load.busy} onClick={() => void s.propose()}>
            {m.tryAgain}
          </button>
        )}
        <button type="button" class="secondary" onClick={onClose}>
          {m.discard}
        </button>
      </div>
    </section>
  );
}
