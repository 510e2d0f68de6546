import type { BusyEvening, MealEvent, PlanDay, Recipe } from '../../api';
import { dayName, weekday } from '../../format';
import { t } from '../../i18n';
import { householdInfo } from '../../state';
import { Problem, RecipeSelect } from '../../ui';
import { ServingNotes } from './serving-notes';
import { addDays } from './dates';
import { DayChange } from './day-change';
import { hiddenByUndo } from '../../ui/undo';
import { useDay } from './use-day';

/** How far ahead a Junior may say she is away (today through today + 14, as the service allows). */
const JUNIOR_DAYS = 14;

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

/** The day's dish to read or cook, at the day's portions; null without a dish of the household's own. */
const dishLink = (day: PlanDay): string | null => (day.recipeId !== null && !day.recipeId.includes(':') ? `/recipes/${day.recipeId}?portions=${day.portions}` : null);

/** A day of the week: its dish (an adult picks it), its events, its serving notes, and what may be changed. */
export function Day(props: { householdId: string; planId: string; day: PlanDay; now: string; recipes: Recipe[]; events: MealEvent[]; busy: BusyEvening | null; onChange: () => void }) {
  const { day, recipes, events, busy } = props;
  const m = t.value;
  const d = useDay(props);
  // An event removed a moment ago, still waiting for "undo", is not shown.
  const shownEvents = events.filter((e) => !hiddenByUndo.value.has(`event:${e.id}`));
  const { adult, act } = d;
  const id = `day-${day.date}`;
  const isToday = day.date === props.now;
  // A Junior may say she is away from today through two weeks on; other days offer her nothing to change.
  const mayChange = adult || (day.date >= props.now && day.date <= addDays(props.now, JUNIOR_DAYS));
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
            <RecipeSelect id={`${id}-dish`} label={m.dish} none={m.noDish} recipes={recipes} value={day.recipeId ?? ''} disabled={act.busy} onChange={(recipeId) => void d.setDish(recipeId)} />
            <p class="muted">
              {m.portions(day.portions)}
              {dishLink(day) && (
                <>
                  {' · '}
                  <a href={dishLink(day)!}>{m.openRecipe(day.recipeTitle ?? '')}</a>
                </>
              )}
            </p>
          </>
        ) : (
          <p>
            {dishLink(day) ? <a href={dishLink(day)!}>{day.recipeTitle}</a> : (day.recipeTitle ?? m.noDish)} <span class="muted">{m.portions(day.portions)}</span>
          </p>
        )
      ) : (
        <p class="muted">{m.closedDay}</p>
      )}
      {shownEvents.length > 0 && (
        <ul class="events" aria-label={m.eventsOf(weekday(day.date))}>
          {shownEvents.map((e) => (
            <li key={e.id}>
              <span>{describe(e)}</span>
              {d.mayRemove(e) && (
                <button type="button" class="link" disabled={act.busy} onClick={() => d.removeEvent(e, m.eventRemoved(describe(e), weekday(day.date)))} aria-label={`${m.removeEvent}: ${describe(e)}`}>
                  {m.removeEvent}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ServingNotes notes={day.servingNotes} />
      {mayChange && <DayChange id={id} date={day.date} day={d} />}
      <Problem error={act.error} />
    </li>
  );
}
