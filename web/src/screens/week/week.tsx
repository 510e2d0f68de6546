import { dayName } from '../../format';
import { t } from '../../i18n';
import { useLocation } from 'preact-iso';
import { household, today } from '../../state';
import { Page, Problem } from '../../ui';
import { addDays, mondayOf } from './dates';
import { Day } from './day';
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
