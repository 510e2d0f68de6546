import { dayName } from '../../format';
import { t } from '../../i18n';
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { household, householdInfo, today } from '../../state';
import { Page, Problem } from '../../ui';
import { addDays, mondayOf } from './dates';
import { Day } from './day';
import { NoRecipesYet } from './no-recipes-yet';
import { SuggestWeek } from './suggest-week';
import { useWeek } from './use-week';

export function Week({ householdId, date }: { householdId: string; date: string }) {
  const { route } = useLocation();
  const m = t.value;
  const adult = household.value?.role !== 'Junior';
  const monday = mondayOf(date);
  const sunday = addDays(monday, 6);
  const { plan, recipes, events, busy, load, refresh } = useWeek(householdId, monday, adult);
  const now = today();
  // A household with no recipes, and the library off, is asked once how it wants to start (until it says "not now").
  const askedKey = `first-run-asked:${householdId}`;
  const [asked, setAsked] = useState(() => localStorage.getItem(askedKey) !== null);
  const putOff = () => {
    localStorage.setItem(askedKey, '1');
    setAsked(true);
  };
  const firstRun = adult && plan !== undefined && recipes.length === 0 && householdInfo.value?.libraryRecipesOn !== true && !asked;
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
          <ol class="days">
            {plan.days.map((d) => (
              <Day
                key={d.id}
                householdId={householdId}
                planId={plan.id}
                day={d}
                now={now}
                recipes={recipes}
                events={events.filter((e) => e.date === d.date)}
                busy={busy.find((b) => b.date === d.date) ?? null}
                onChange={refresh}
              />
            ))}
          </ol>
          <p>
            <a class="button" href={`/list/${plan.id}`}>
              {m.list}
            </a>
          </p>
        </>
      )}
    </Page>
  );
}
