import { dayName } from '../../format';
import { t } from '../../i18n';
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, dataOf, type PlanDay } from '../../api';
import { household, householdInfo, today } from '../../state';
import { Page, Problem, useAction } from '../../ui';
import { addDays, mondayOf } from './dates';
import { Day } from './day';
import { splitPast } from './day-facts';
import { DishPicker } from './dish-picker';
import { NoRecipesYet } from './no-recipes-yet';
import { SuggestWeek } from './suggest-week';
import { useWeek } from './use-week';

/** Moving a dish (the "move" menu, or a drop on a computer): one call that swaps it with the day it goes to. */
function useMove(householdId: string, planId: string | undefined, days: readonly PlanDay[], refresh: () => void) {
  const act = useAction();
  const [said, setSaid] = useState('');
  const move = (from: string, to: string) =>
    act.run(async () => {
      if (!planId) return;
      const title = days.find((d) => d.date === from)?.recipeTitle ?? '';
      await dataOf(api.POST('/api/v1/households/{householdId}/plans/{planId}/days/{date}/move', { params: { path: { householdId, planId, date: from } }, body: { to } }));
      setSaid(t.value.dishMoved(title, dayName(to)));
      refresh();
    });
  return { act, said, move, say: setSaid };
}

export function Week({ householdId, date }: { householdId: string; date: string }) {
  const { route } = useLocation();
  const m = t.value;
  const adult = household.value?.role !== 'Junior';
  const monday = mondayOf(date);
  const sunday = addDays(monday, 6);
  const { plan, dishes, hasRecipes, events, evenings, load, refresh } = useWeek(householdId, monday, adult);
  const now = today();
  const [showPast, setShowPast] = useState(false);
  const [picking, setPicking] = useState<PlanDay | null>(null);
  const moving = useMove(householdId, plan?.id, plan?.days ?? [], refresh);
  // A household with no recipes, and the library off, is asked once how it wants to start (until it says "not now").
  const askedKey = `first-run-asked:${householdId}`;
  const [asked, setAsked] = useState(() => localStorage.getItem(askedKey) !== null);
  const putOff = () => {
    localStorage.setItem(askedKey, '1');
    setAsked(true);
  };
  const firstRun = adult && plan !== undefined && hasRecipes === false && householdInfo.value?.libraryRecipesOn !== true && !asked;
  const { past } = splitPast(plan?.days ?? [], now);
  const pastDates = new Set(past.map((d) => d.date));
  const dayCard = (d: PlanDay) => (
    <Day
      key={d.id}
      householdId={householdId}
      planId={plan!.id}
      day={d}
      now={now}
      dishes={dishes}
      events={events.filter((e) => e.date === d.date)}
      evening={evenings.find((e) => e.date === d.date) ?? null}
      week={plan!.days}
      past={pastDates.has(d.date)}
      onChange={refresh}
      onPick={setPicking}
      onMove={(from, to) => void moving.move(from, to)}
      onSaid={(text) => {
        moving.say(text);
        refresh();
      }}
    />
  );
  return (
    <Page title={m.weekOf(dayName(monday))}>
      <nav class="row" aria-label={m.pickWeek}>
        <button type="button" onClick={() => route(`/week/${addDays(monday, -7)}`)}>
          ← {m.previousWeek}
        </button>
        {(now < monday || now > sunday) && (
          <a href={`/week/${now}`} class="button secondary">
            {m.thisWeek}
          </a>
        )}
        <button type="button" onClick={() => route(`/week/${addDays(monday, 7)}`)}>
          {m.nextWeek} →
        </button>
      </nav>
      <Problem error={load.error} />
      {firstRun && <NoRecipesYet householdId={householdId} Heading="h2" onLibraryOn={putOff} onNotNow={putOff} />}
      {adult && plan?.weekStart === monday && <SuggestWeek householdId={householdId} planId={plan.id} onSaved={refresh} />}
      {plan === undefined ? (
        !load.error && <p>{m.loading}</p>
      ) : plan === null ? (
        <p>{m.weekNotPlanned}</p>
      ) : (
        <>
          <p role="status" class="moved">
            {moving.said}
          </p>
          <Problem error={moving.act.error} />
          {past.length > 0 && (
            <button type="button" class="secondary past-toggle" aria-expanded={showPast} aria-controls="week-days" onClick={() => setShowPast(!showPast)}>
              {showPast ? m.hidePastDays : m.pastDays(past.length)}
            </button>
          )}
          <ol id="week-days" class={showPast ? 'days show-past' : 'days'}>
            {plan.days.map(dayCard)}
          </ol>
          {adult && <p class="muted drag-hint">{m.dragHint}</p>}
          <p>
            <a class="button" href={`/list/${plan.id}`}>
              {m.list}
            </a>
          </p>
        </>
      )}
      {picking && plan && (
        <DishPicker
          householdId={householdId}
          planId={plan.id}
          day={picking}
          onDone={refresh}
          onClose={() => {
            const date = picking.date;
            setPicking(null);
            // The focus goes back to the day's own "choose" button.
            requestAnimationFrame(() => document.querySelector<HTMLButtonElement>(`#day-${date}-h ~ .day-actions button`)?.focus());
          }}
        />
      )}
    </Page>
  );
}
