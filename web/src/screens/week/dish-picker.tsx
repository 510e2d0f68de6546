import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, dataOf, type DayChoice, type DayChoices, type DaySuggestion, type PlanDay } from '../../api';
import { dayName } from '../../format';
import { t } from '../../i18n';
import { Problem, useAction } from '../../ui';
import { photoSrc } from '../recipe/photo-upload';

/** How long the search waits after the last key before asking the service. */
const SEARCH_PAUSE_MS = 250;

/** One recipe to pick: its picture, title, minutes and tags, and why it fits the day less well or not at all. */
function Choice({ c, left, current, busy, onPick }: { c: DayChoice; left: number | null; current: boolean; busy: boolean; onPick: () => void }) {
  const m = t.value;
  const why = c.clash ? m.clashWith(c.clash.ingredient, c.clash.avoid) : c.tooLong && left !== null ? m.tooLongFor(c.minutes, left) : null;
  const about = [c.minutes !== null ? m.minutes(c.minutes) : null, ...c.tags.slice(0, 3)].filter((x) => x !== null).join(' · ');
  return (
    <li>
      {/* A dish that breaks an avoid cannot be saved (the service refuses it): it is shown, with why, but not offered. */}
      <button type="button" class={current ? 'choice current' : 'choice'} aria-disabled={c.clash !== null || busy} aria-current={current ? 'true' : undefined} onClick={() => c.clash === null && !busy && onPick()}>
        {c.image ? <img src={photoSrc(c.image)} alt="" width={56} height={56} loading="lazy" decoding="async" /> : <span class="thumb-none" aria-hidden="true" />}
        <span class="choice-text">
          <span class="choice-title">{c.title}</span>
          {about && <span class="muted">{about}</span>}
          {why && <span class="choice-why">{why}</span>}
        </span>
      </button>
    </li>
  );
}

/**
 * Choosing or changing a day's dish: a dialog with a search, the planner's "suggest one", and the household's recipes,
 * what fits the day (the guests' avoids, the evening's time) first. Escape or "Close" gives the focus back.
 */
export function DishPicker({ householdId, planId, day, onDone, onClose }: { householdId: string; planId: string; day: PlanDay; onDone: () => void; onClose: () => void }) {
  const m = t.value;
  const dialog = useRef<HTMLDialogElement>(null);
  const [q, setQ] = useState('');
  const [choices, setChoices] = useState<DayChoices | undefined>(undefined);
  const [suggested, setSuggested] = useState<{ day: DaySuggestion; seed: number } | null>(null);
  const load = useAction();
  const act = useAction();
  const path = { householdId, planId, date: day.date };
  useLayoutEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    const timer = setTimeout(
      () =>
        void load.run(async () => {
          const query = q.trim() === '' ? {} : { q: q.trim() };
          setChoices(await dataOf(api.GET('/api/v1/households/{householdId}/plans/{planId}/days/{date}/choices', { params: { path, query } })));
        }),
      choices === undefined ? 0 : SEARCH_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [q]);

  const done = async (write: Promise<unknown>) => {
    await write;
    onDone();
    dialog.current?.close();
  };
  const pick = (recipeId: string) =>
    act.run(() => done(dataOf(api.PUT('/api/v1/households/{householdId}/plans/{planId}/days/{date}', { params: { path }, body: { recipeId, portions: day.portionsOverride, note: day.note } }))));
  const clear = () => act.run(() => done(dataOf(api.DELETE('/api/v1/households/{householdId}/plans/{planId}/days/{date}', { params: { path } }))));
  // The planner's pick (a library dish too) is saved as a proposal is: it becomes the household's recipe.
  const takeSuggestion = (recipeId: string) =>
    act.run(() => done(dataOf(api.POST('/api/v1/households/{householdId}/plans/{planId}/suggestions/accept', { params: { path: { householdId, planId } }, body: { days: [{ date: day.date, recipeId }] } }))));
  const suggest = () =>
    act.run(async () => {
      const seed = ((suggested?.seed ?? Math.floor(Math.random() * 1000)) + 1) % 1_000_000;
      const s = await dataOf(api.POST('/api/v1/households/{householdId}/plans/{planId}/suggestions', { params: { path: { householdId, planId } }, body: { seed, days: [day.date], ai: false } }));
      setSuggested({ day: s.days[0]!, seed });
    });

  const items = choices?.items ?? [];
  const groups = [
    { key: 'fits', title: m.fitsTheDay, items: items.filter((c) => c.fits) },
    { key: 'less', title: m.fitsLess, items: items.filter((c) => !c.fits && c.clash === null) },
    { key: 'not', title: m.cannotServe, items: items.filter((c) => c.clash !== null) },
  ].filter((g) => g.items.length > 0);
  const titleId = `picker-${day.date}-h`;
  return (
    <dialog ref={dialog} class="picker" aria-labelledby={titleId} onClose={onClose}>
      <div class="picker-head">
        <h2 id={titleId}>{m.dishPickerTitle(dayName(day.date))}</h2>
        <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
          {m.close}
        </button>
      </div>
      {choices && <p class="muted">{m.evening(choices.cookingMinutes)}</p>}
      <label for={`${titleId}-q`}>{m.searchDishes}</label>
      <input id={`${titleId}-q`} type="search" value={q} maxLength={200} autoComplete="off" onInput={(e) => setQ(e.currentTarget.value)} />
      <div class="row">
        <button type="button" class="secondary" aria-disabled={act.busy} onClick={() => !act.busy && void suggest()}>
          {m.plannerPick}
        </button>
        {day.recipeId !== null && (
          <button type="button" class="secondary" aria-disabled={act.busy} onClick={() => !act.busy && void clear()}>
            {m.noDishThatDay}
          </button>
        )}
      </div>
      <div aria-live="polite">
        {suggested && (
          <div class="suggested-pick">
            <p class="muted">{m.plannerPicked}</p>
            {suggested.day.recipeId !== null ? (
              <button type="button" class="choice" aria-disabled={act.busy} onClick={() => !act.busy && void takeSuggestion(suggested.day.recipeId!)}>
                <span class="choice-text">
                  <span class="choice-title">{suggested.day.recipeTitle}</span>
                  {suggested.day.recipeMinutes !== null && <span class="muted">{m.minutes(suggested.day.recipeMinutes)}</span>}
                </span>
              </button>
            ) : (
              <p>{m.noDishFits}</p>
            )}
          </div>
        )}
      </div>
      <Problem error={act.error ?? load.error} />
      {choices === undefined ? (
        !load.error && <p>{m.loading}</p>
      ) : items.length === 0 ? (
        <p>{q.trim() === '' ? m.noRecipesToChoose : m.nothingMatches}</p>
      ) : (
        groups.map((g) => (
          <section key={g.key} aria-labelledby={`${titleId}-${g.key}`}>
            <h3 id={`${titleId}-${g.key}`}>{g.title}</h3>
            <ul class="choices">
              {g.items.map((c) => (
                <Choice key={c.recipeId} c={c} left={choices.cookingMinutes} current={c.recipeId === day.recipeId} busy={act.busy} onPick={() => void pick(c.recipeId)} />
              ))}
            </ul>
          </section>
        ))
      )}
      {choices?.more && <p class="muted">{m.moreToFind}</p>}
    </dialog>
  );
}
