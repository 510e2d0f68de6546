import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { Recipe } from '../../api';
import { t } from '../../i18n';
import { IngredientList, RecipeLoading, startingPortions, useSavedRecipe } from './recipe-view';
import { clock, minutesIn } from './durations';
import { secondsLeft, useCookTimers, useWakeLock, type CookTimer } from './use-cook-timers';

/** Whether a key press was meant for a field (typing, choosing) rather than for moving between steps. */
function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/**
 * The running and finished timers, above the step so they show whichever step is open. Each shows its minutes and
 * seconds left (role=timer, which screen readers do not read out every second); a hidden line says the whole minutes
 * left (aria-live polite), so a screen reader hears it once a minute, not once a second. A finished one says so on
 * its card until it is put away; the sentence that it finished is read out at once (role=alert, assertive).
 */
function TimerList({ timers, now, onStop }: { timers: readonly CookTimer[]; now: number; onStop: (id: string) => void }) {
  const m = t.value;
  const ended = timers.filter((x) => x.done).map((x) => m.timerDone(x.step, x.minutes));
  return (
    <>
      <p class="timer-alert visually-hidden" role="alert">
        {ended.join(' ')}
      </p>
      {timers.length > 0 && (
        <section class="timers" aria-labelledby="timers-h">
          <h2 id="timers-h" class="visually-hidden">
            {m.timers}
          </h2>
          <ul>
            {timers.map((x) => {
              const left = secondsLeft(x, now);
              return (
                <li key={x.id} class={x.done ? 'timer done' : 'timer'}>
                  <span class="timer-name">{m.timerName(x.step, x.minutes)}</span>
                  {x.done ? (
                    <strong class="timer-clock">{m.timeIsUp}</strong>
                  ) : (
                    <span class="timer-clock" role="timer">
                      {clock(left)}
                    </span>
                  )}
                  <span class="visually-hidden" aria-live="polite">
                    {x.done ? '' : m.minutesLeft(x.step, Math.ceil(left / 60))}
                  </span>
                  <button type="button" class="secondary" aria-label={x.done ? m.putAwayTimer(x.step) : m.stopTimer(x.step)} onClick={() => onStop(x.id)}>
                    {x.done ? m.ok : m.stop}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </>
  );
}

/** One step in large type, and a "Start N min" button for each duration it names that has no timer running. */
function Step({ text, index, total, timers, onStart }: { text: string; index: number; total: number; timers: readonly CookTimer[]; onStart: (id: string, minutes: number) => void }) {
  const m = t.value;
  const running = (id: string) => timers.some((x) => x.id === id && !x.done);
  return (
    <section class="cook-step" aria-labelledby="step-h">
      {/* Read out when the step changes, heading and text together. */}
      <div aria-live="polite" aria-atomic="true">
        <h2 id="step-h" class="step-of">
          {m.stepOf(index + 1, total)}
        </h2>
        <progress max={total} value={index + 1} aria-hidden="true" />
        <p class="step-text">{text}</p>
      </div>
      <div class="step-timers">
        {minutesIn(text).map((minutes, k) => {
          const id = `${index}-${k}`;
          return running(id) ? null : (
            <button key={id} type="button" onClick={() => onStart(id, minutes)}>
              {m.startTimer(minutes)}
            </button>
          );
        })}
      </div>
    </section>
  );
}

/**
 * Cooking a recipe step by step: one step at a time in large type, "Forrige"/"Neste" and the ← and → keys, the
 * ingredients for the portions chosen one tap away, the screen kept on, and timers started from the minutes a step
 * names, which keep running while the cook moves between steps.
 */
function Cooking({ recipe, portions }: { recipe: Recipe; portions: number }) {
  const m = t.value;
  const { route } = useLocation();
  const [index, setIndex] = useState(0);
  const { timers, now, start, stop } = useCookTimers();
  const awake = useWakeLock();
  const total = recipe.steps.length;
  const back = `/recipes/${recipe.id}?portions=${portions}`;
  const move = (by: number) => setIndex((i) => Math.min(Math.max(i + by, 0), Math.max(total - 1, 0)));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Alt+← is the browser's Back; a field's arrows move its caret.
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || typing(e.target)) return;
      if (e.key === 'ArrowRight') move(1);
      else if (e.key === 'ArrowLeft') move(-1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [total]);

  const last = index >= total - 1;
  return (
    <main id="main" tabIndex={-1} class="cook">
      <p class="cook-back">
        <a href={back}>{m.backToRecipe}</a>
      </p>
      <h1>{recipe.title}</h1>
      <details class="cook-ingredients" open={total === 0}>
        <summary>{m.ingredientsFor(portions)}</summary>
        <IngredientList recipe={recipe} portions={portions} />
      </details>
      <TimerList timers={timers} now={now} onStop={stop} />
      {total === 0 ? (
        <p>{m.noStepsYet}</p>
      ) : (
        <>
          <Step text={recipe.steps[index]!} index={index} total={total} timers={timers} onStart={(id, minutes) => start(id, index + 1, minutes)} />
          {/* aria-disabled, not disabled: the button keeps the keyboard's focus on the first step; the last step's
              "Neste" becomes "Ferdig", the same button, for the same reason. */}
          <div class="cook-nav">
            <button type="button" class="secondary" aria-disabled={index === 0 ? 'true' : undefined} onClick={() => move(-1)}>
              <span aria-hidden="true">←</span>
              {m.previousStep}
            </button>
            <button type="button" onClick={() => (last ? route(back) : move(1))}>
              {last ? m.doneCooking : m.nextStep}
              {!last && <span aria-hidden="true">→</span>}
            </button>
          </div>
          <p class="muted keys-hint">{m.arrowKeysHint}</p>
        </>
      )}
      {awake && <p class="muted">{m.screenAwake}</p>}
    </main>
  );
}

/** The cooking view at /recipes/:recipeId/cook, for `?portions=N` (else the recipe's own portions). */
export function CookView({ householdId, recipeId }: { householdId: string; recipeId: string }) {
  const { query } = useLocation();
  const { recipe, error } = useSavedRecipe(householdId, recipeId);
  if (!recipe) return <RecipeLoading error={error} />;
  return <Cooking recipe={recipe} portions={startingPortions(query['portions'], recipe.servings)} />;
}
