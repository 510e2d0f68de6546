import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf, type DaySuggestion, type SuggestionReason, type WeekSuggestion } from '../../api';
import { dayName, kroner, together } from '../../format';
import { sentenceFor, t, type ReasonFacts } from '../../i18n';
import { Problem, useAction } from '../../ui';

/** The reasons that warn: the dish was the best one left, but breaks a soft rule. */
const WARNINGS: ReadonlySet<SuggestionReason> = new Set(['Disliked', 'EatenLately', 'RepeatsThisWeek']);
/** Answers meaning the household's AI may not be asked now: the proposal is asked for again without it. */
const AI_REFUSALS: ReadonlySet<string> = new Set(['ai_quota_used', 'ai_paused']);
const SEEDS = 2 ** 32;
/** How many seeds one press of "another one" tries before saying that no other dish fits. */
const DRAWS_PER_PRESS = 4;

/** A proposed day as shown: the service's answer, whether saving takes it, and the seed it was drawn with. */
interface Shown {
  readonly day: DaySuggestion;
  readonly include: boolean;
  readonly seed: number;
  /** "Another one" came back with the same dish (nothing else fits). */
  readonly same: boolean;
}

type Ask = { seed: number; days?: string[]; keeping?: { date: string; recipeId: string }[] };

/** A fresh draw each time the panel opens, so asking again after discarding gives another week. */
const freshSeed = () => crypto.getRandomValues(new Uint32Array(1))[0]!;

/**
 * "Suggest the week" (adults): the planner's proposal for the days without a dish, nothing written until "Save the
 * week". Each day can be drawn again ("another one") or left out; the reasons are the service's, said as sentences.
 */
export function WeekSuggestions({ householdId, planId, onSaved, onClose }: { householdId: string; planId: string; onSaved: () => void; onClose: () => void }) {
  const m = t.value;
  const [days, setDays] = useState<Shown[] | null>(null);
  const [usualPrice, setUsualPrice] = useState<number | null>(null);
  const [aiNotes, setAiNotes] = useState(false);
  // The 429 that said the AI may not be asked: said once, and the AI is not asked again while the panel is open.
  const [aiRefused, setAiRefused] = useState<unknown>(null);
  const [changing, setChanging] = useState<string | null>(null);
  const [dayError, setDayError] = useState<{ date: string; error: unknown } | null>(null);
  const [noneIncluded, setNoneIncluded] = useState(false);
  const load = useAction();
  const save = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const path = { params: { path: { householdId, planId } } };

  /** The proposal; `ai: false` when the AI must not be asked (refused before, or a draw asked again). */
  const suggest = async (ask: Ask, ai?: false): Promise<WeekSuggestion> => {
    const post = (body: Ask & { ai?: boolean }) => dataOf(api.POST('/api/v1/households/{householdId}/plans/{planId}/suggestions', { ...path, body }));
    if (aiRefused || ai === false) return post({ ...ask, ai: false });
    try {
      return await post(ask);
    } catch (err) {
      if (!(err instanceof ApiProblem && err.code !== null && AI_REFUSALS.has(err.code))) throw err;
      setAiRefused(err);
      return post({ ...ask, ai: false });
    }
  };

  const propose = () =>
    load.run(async () => {
      const s = await suggest({ seed: freshSeed() });
      setDays(s.days.map((d) => ({ day: d, include: d.recipeId !== null, seed: s.seed, same: false })));
      setUsualPrice(s.usualPrice);
      setAiNotes(s.aiNotes);
    });
  useEffect(() => {
    heading.current?.focus();
    void propose();
  }, [householdId, planId]);

  const another = async (shown: Shown) => {
    if (changing !== null || days === null) return;
    const date = shown.day.date;
    setChanging(date);
    setDayError(null);
    try {
      // The dishes kept for the other days are not proposed again.
      const keeping = days.filter((x) => x.day.date !== date && x.include && x.day.recipeId !== null).map((x) => ({ date: x.day.date, recipeId: x.day.recipeId! }));
      // A new seed may draw the same dish again: a few more seeds are tried (without the AI, whose calls are counted).
      let seed = shown.seed;
      let next: DaySuggestion | undefined;
      for (let tries = 0; tries < DRAWS_PER_PRESS; tries++) {
        seed = (seed + 1) % SEEDS;
        const s = await suggest({ seed, days: [date], keeping }, tries > 0 ? false : undefined);
        if (s.aiNotes) setAiNotes(true);
        next = s.days.find((d) => d.date === date);
        if (!next || next.recipeId === null || next.recipeId !== shown.day.recipeId) break;
      }
      const found = next;
      if (found) setDays((all) => all!.map((x) => (x.day.date === date ? { day: found, include: found.recipeId !== null, seed, same: found.recipeId === x.day.recipeId } : x)));
    } catch (err) {
      setDayError({ date, error: err });
    } finally {
      setChanging(null);
    }
  };

  const include = (date: string, on: boolean) => {
    setNoneIncluded(false);
    setDays((all) => all!.map((x) => (x.day.date === date ? { ...x, include: on } : x)));
  };

  const saveWeek = () =>
    save.run(async () => {
      const chosen = (days ?? []).filter((x) => x.include && x.day.recipeId !== null).map((x) => ({ date: x.day.date, recipeId: x.day.recipeId! }));
      setNoneIncluded(chosen.length === 0);
      if (chosen.length === 0) return;
      await api.POST('/api/v1/households/{householdId}/plans/{planId}/suggestions/accept', { ...path, body: { days: chosen } });
      onSaved();
    });

  // The estimates of the days "Lagre uka" would save (a day left out costs nothing), added up as the service adds
  // up a whole proposal; how many of them are priced is said too.
  const dishes = (days ?? []).filter((x) => x.day.recipeId !== null && x.include);
  const priced = dishes.map((x) => x.day.estimatedPrice).filter((p): p is number => p !== null);
  const estimated = priced.length === 0 ? null : priced.reduce((a, b) => a + b, 0);
  return (
    <section class="suggestions" aria-labelledby="suggest-h" aria-busy={load.busy}>
      <h2 id="suggest-h" tabIndex={-1} ref={heading}>
        {m.suggestionsTitle}
      </h2>
      <p class="muted suggest-note" role="status">
        {aiRefused ? sentenceFor(aiRefused) : ''}
      </p>
      <Problem error={load.error} />
      {days === null ? (
        load.busy && <p>{m.loading}</p>
      ) : days.length === 0 ? (
        <p>{m.nothingToSuggest}</p>
      ) : (
        <>
          <p class="muted">{m.suggestionsAbout}</p>
          <ol class="suggested-days">
            {days.map((x) => (
              <SuggestedDay key={x.day.date} shown={x} changing={changing} error={dayError?.date === x.day.date ? dayError.error : null} onAnother={() => void another(x)} onInclude={(on) => include(x.day.date, on)} />
            ))}
          </ol>
          {(estimated !== null || usualPrice !== null) && (
            <ul class="week-prices">
              {estimated !== null && <li>{m.suggestedPrice(kroner(estimated), priced.length, dishes.length)}</li>}
              {usualPrice !== null && <li>{m.usualPrice(kroner(usualPrice))}</li>}
            </ul>
          )}
          {aiNotes && <p class="muted">{m.aiWrote}</p>}
        </>
      )}
      <Problem error={save.error} />
      {noneIncluded && (
        <p class="problem" role="alert">
          {m.nothingIncluded}
        </p>
      )}
      <div class="row suggest-actions">
        {days !== null && days.length > 0 && (
          <button type="button" disabled={save.busy || changing !== null} onClick={() => void saveWeek()}>
            {m.saveWeek}
          </button>
        )}
        {load.error !== null && (
          <button type="button" disabled={load.busy} onClick={() => void propose()}>
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

function SuggestedDay({ shown, changing, error, onAnother, onInclude }: { shown: Shown; changing: string | null; error: unknown; onAnother: () => void; onInclude: (on: boolean) => void }) {
  const m = t.value;
  const d = shown.day;
  const name = dayName(d.date);
  const id = `suggest-${d.date}`;
  const facts: ReasonFacts = { recipeMinutes: d.recipeMinutes, cookingMinutes: d.cookingMinutes, foods: together(d.pantryFoods) };
  // Typed by the service's own reason codes: a code with no sentence fails the build.
  const sentences: Record<SuggestionReason, (f: ReasonFacts) => string> = m.reason;
  const about = [m.portions(d.portions), d.recipeMinutes !== null ? m.minutes(d.recipeMinutes) : null, d.estimatedPrice !== null ? m.aboutPrice(kroner(d.estimatedPrice)) : null].filter((x) => x !== null);
  return (
    <li class={d.recipeId !== null && !shown.include ? 'suggested-day left-out' : 'suggested-day'} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{name}</h3>
      {/* Read out when "another one" changes the day. */}
      <div aria-live="polite">
        <p class={d.recipeId === null ? 'dish none' : 'dish'}>{d.recipeTitle ?? m.noDishFits}</p>
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
      {d.servingNotes.length > 0 && (
        <ul class="notes" aria-label={m.servingNotes}>
          {d.servingNotes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
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
