import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, api, type BusyEvening, type MealEvent, type PlanDay, type Recipe } from '../../api';
import { dayName, weekday } from '../../format';
import { t } from '../../i18n';
import { useLocation } from 'preact-iso';
import { household, householdInfo, today } from '../../state';
import { Page, Problem, screen, useAction } from '../../ui';
import { addDays, mondayOf } from './dates';
import { useWeek } from './use-week';

// The proposal is loaded when an adult first asks for one: the week itself opens without it.
const WeekSuggestions = screen(() => import('./week-suggestions').then((p) => p.WeekSuggestions));


/** How far ahead a Junior may say she is away (today through today + 14, as the service allows). */
const JUNIOR_DAYS = 14;

type Kind = 'Guests' | 'PersonAbsent' | 'EatingOut' | 'Travel';

export function Week({ householdId, date }: { householdId: string; date: string }) {
  const { route } = useLocation();
  const m = t.value;
  const adult = household.value?.role !== 'Junior';
  const monday = mondayOf(date);
  const sunday = addDays(monday, 6);
  const { plan, recipes, events, busy, load, refresh } = useWeek(householdId, monday, adult);
  // "Suggest the week": open or not, and whether the last proposal was saved. Closing gives the focus back to the button.
  const [suggesting, setSuggesting] = useState(false);
  const [saved, setSaved] = useState(false);
  const suggestButton = useRef<HTMLButtonElement>(null);
  const wasSuggesting = useRef(false);
  useEffect(() => {
    setSuggesting(false);
    setSaved(false);
  }, [householdId, monday]);
  useLayoutEffect(() => {
    if (wasSuggesting.current && !suggesting) suggestButton.current?.focus();
    wasSuggesting.current = suggesting;
  }, [suggesting]);
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
      {adult && plan?.weekStart === monday && (
        <div class="suggest-open">
          {suggesting ? (
            <WeekSuggestions
              householdId={householdId}
              planId={plan.id}
              onClose={() => setSuggesting(false)}
              onSaved={() => {
                setSuggesting(false);
                setSaved(true);
                void refresh();
              }}
            />
          ) : (
            <button
              type="button"
              ref={suggestButton}
              onClick={() => {
                setSaved(false);
                setSuggesting(true);
              }}
            >
              {m.suggestWeek}
            </button>
          )}
          <p role="status" class="suggest-saved">
            {saved ? m.weekSaved : ''}
          </p>
        </div>
      )}
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

/** What an event does to the day, in words: "3 gjester (unngår nøtter)", "Kari er borte", "Spiser ute". */
function describe(e: MealEvent): string {
  const m = t.value;
  const names = householdInfo.value?.members ?? [];
  const guests = e.participants.filter((p) => p.householdMemberId === null);
  const count = guests.reduce((n, p) => n + p.guestCount, 0);
  const avoids = [...new Set(guests.flatMap((p) => p.avoids))];
  const absent = e.participants.filter((p) => p.householdMemberId !== null && !p.isPresent).map((p) => names.find((x) => x.id === p.householdMemberId)?.displayName ?? '?');
  if (e.eventType === 'Guests' || (count > 0 && e.eventType !== 'PersonAbsent')) return m.guestsEvent(count, avoids.join(', '));
  if (e.eventType === 'PersonAbsent') return m.awayEvent(absent.join(', '));
  return m.eventType[e.eventType] ?? e.eventType;
}

function Day(props: { householdId: string; planId: string; day: PlanDay; now: string; recipes: Recipe[]; events: MealEvent[]; busy: BusyEvening | null; onChange: () => void }) {
  const { householdId, planId, day, recipes, events, busy, onChange } = props;
  const m = t.value;
  const mine = household.value;
  const adult = mine?.role !== 'Junior';
  const act = useAction();
  const [kind, setKind] = useState<Kind>(adult ? 'Guests' : 'PersonAbsent');
  const [guests, setGuests] = useState('');
  const [avoids, setAvoids] = useState('');
  const [who, setWho] = useState(mine?.memberId ?? '');
  const [through, setThrough] = useState(day.date);
  const [open, setOpen] = useState(false);
  const id = `day-${day.date}`;
  const members = householdInfo.value?.members ?? [];
  const setDish = (recipeId: string) =>
    act.run(async () => {
      await api.PUT('/api/v1/households/{householdId}/plans/{planId}/days/{date}', { params: { path: { householdId, planId, date: day.date } }, body: { recipeId: recipeId || null, portions: day.portionsOverride, note: day.note } });
      onChange();
    });
  const addEvent = (replaceDish: boolean) =>
    act.run(async () => {
      const words = avoids.split(',').map((w) => w.trim()).filter((w) => w !== '');
      const fields = {
        eventType: kind,
        servingTime: null,
        availableCookingMinutes: null,
        notes: null,
        guests: kind === 'Guests' ? [{ guestType: 'Adult' as const, guestCount: Math.max(1, Math.round(Number(guests)) || 1), dietaryNotes: null, avoids: words }] : null,
        memberAttendance: kind === 'PersonAbsent' ? [{ householdMemberId: adult ? who : mine!.memberId!, isPresent: false, dietaryNotes: null }] : null,
      };
      const path = { params: { path: { householdId } } };
      // Several days at once go in one call, all or none; so does a change that takes a dish off (only runs offer that).
      if (through > day.date || replaceDish) await api.POST('/api/v1/households/{householdId}/events/run', { ...path, body: { ...fields, from: day.date, through, replaceDish } });
      else await api.POST('/api/v1/households/{householdId}/events', { ...path, body: { ...fields, date: day.date } });
      setGuests('');
      setAvoids('');
      setThrough(day.date);
      setOpen(false);
      onChange();
    });
  const removeEvent = (e: MealEvent) =>
    act.run(async () => {
      await api.DELETE('/api/v1/households/{householdId}/events/{eventId}', { params: { path: { householdId, eventId: e.id } } });
      onChange();
    });
  const mayRemove = (e: MealEvent) =>
    adult || ((e.eventType === 'PersonAbsent' || e.eventType === 'PersonPresent') && e.participants.every((p) => p.householdMemberId === mine?.memberId));
  const isToday = day.date === props.now;
  // A Junior may say she is away from today through two weeks on; other days offer her nothing to change.
  const mayChange = adult || (day.date >= props.now && day.date <= addDays(props.now, JUNIOR_DAYS));
  const conflict = act.error instanceof ApiProblem && act.error.code === 'avoid_conflict' && open;
  return (
    <li class={isToday ? 'day today' : 'day'} aria-labelledby={`${id}-h`} aria-current={isToday ? 'date' : undefined}>
      <h2 id={`${id}-h`}>
        {dayName(day.date)}
        {isToday && <span class="badge">{m.today}</span>}
      </h2>
      {busy && (
        <p class="busy">
          {m.busyEvening(busy.title, [busy.startTime, busy.endTime].filter((x) => x !== null).join('–'))}
        </p>
      )}
      {day.cookedAtHome ? (
        adult ? (
          <>
            <label for={`${id}-dish`}>{m.dish}</label>
            <select id={`${id}-dish`} value={day.recipeId ?? ''} disabled={act.busy} onChange={(e) => void setDish(e.currentTarget.value)}>
              <option value="">{m.noDish}</option>
              {recipes.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                </option>
              ))}
            </select>
            <p class="muted">{m.portions(day.portions)}</p>
          </>
        ) : (
          <p>
            {day.recipeTitle ?? m.noDish} <span class="muted">{m.portions(day.portions)}</span>
          </p>
        )
      ) : (
        <p class="muted">{m.closedDay}</p>
      )}
      {events.length > 0 && (
        <ul class="events" aria-label={m.eventsOf(weekday(day.date))}>
          {events.map((e) => (
            <li key={e.id}>
              <span>{describe(e)}</span>
              {mayRemove(e) && (
                <button type="button" class="link" disabled={act.busy} onClick={() => void removeEvent(e)} aria-label={`${m.removeEvent}: ${describe(e)}`}>
                  {m.removeEvent}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {day.servingNotes.length > 0 && (
        <ul class="notes" aria-label={m.servingNotes}>
          {day.servingNotes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {mayChange && (
        <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary>{adult ? m.changeDay : m.awaySummary}</summary>
          <form
            class="stack"
            onSubmit={(e) => {
              e.preventDefault();
              void addEvent(false);
            }}
          >
            {adult ? (
              <fieldset>
                <legend>{m.whatHappens}</legend>
                {(['Guests', 'PersonAbsent', 'EatingOut', 'Travel'] as const).map((k) => (
                  <label key={k} class="check">
                    <input type="radio" name={`${id}-kind`} value={k} checked={kind === k} onChange={() => setKind(k)} />
                    {m.kindLabel[k]}
                  </label>
                ))}
              </fieldset>
            ) : (
              <p>{m.iAmAway}</p>
            )}
            {kind === 'Guests' && (
              <>
                <label for={`${id}-guests`}>{m.guestsCount}</label>
                <input id={`${id}-guests`} type="number" min={1} max={1000} inputMode="numeric" required value={guests} onInput={(e) => setGuests(e.currentTarget.value)} />
                <label for={`${id}-avoids`}>{m.avoids}</label>
                <input id={`${id}-avoids`} maxLength={500} value={avoids} onInput={(e) => setAvoids(e.currentTarget.value)} />
              </>
            )}
            {kind === 'PersonAbsent' && adult && (
              <>
                <label for={`${id}-who`}>{m.whoIsAway}</label>
                <select id={`${id}-who`} value={who} required onChange={(e) => setWho(e.currentTarget.value)}>
                  {members.map((x) => (
                    <option key={x.id} value={x.id}>
                      {x.displayName}
                    </option>
                  ))}
                </select>
              </>
            )}
            {adult && (
              <>
                <label for={`${id}-through`}>{m.through}</label>
                <input id={`${id}-through`} type="date" min={day.date} max={addDays(day.date, 30)} value={through} onInput={(e) => setThrough(e.currentTarget.value || day.date)} />
              </>
            )}
            <button type="submit" disabled={act.busy}>
              {m.addEvent}
            </button>
            {conflict && (
              <button type="button" class="secondary" disabled={act.busy} onClick={() => void addEvent(true)}>
                {m.addAndClearDish}
              </button>
            )}
          </form>
        </details>
      )}
      <Problem error={act.error} />
    </li>
  );
}
