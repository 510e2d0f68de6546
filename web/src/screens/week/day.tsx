import type { Evening, MealEvent, PlanDay, Recipe } from '../../api';
import { dayName, weekday } from '../../format';
import { t } from '../../i18n';
import { householdInfo } from '../../state';
import { Problem } from '../../ui';
import { ServingNotes } from './serving-notes';
import { addDays } from './dates';
import { DayChange } from './day-change';
import { dayWarning, minutesOf, type DayWarning } from './day-facts';
import { hiddenByUndo } from '../../ui/undo';
import { useDay } from './use-day';
import { MoveDish } from './move-dish';
import { ClearLeftovers, CookDouble } from './cook-double';
import { photoSrc } from '../recipe/photo-upload';
import { FixedDinner } from './fixed-dinner';

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

/** The one line said about the dish, when something is wrong with it. */
function warningText(w: DayWarning, title: string): string | null {
  const m = t.value;
  if (w === null) return null;
  if (w.kind === 'closed') return m.warnClosed(title);
  if (w.kind === 'unknownTime') return m.warnUnknownTime(title, w.left);
  return m.warnTooLong(title, w.minutes, w.left);
}

export interface DayProps {
  householdId: string;
  planId: string;
  day: PlanDay;
  now: string;
  /** The week's dishes as recipes (picture, minutes), by id. */
  dishes: ReadonlyMap<string, Recipe>;
  events: MealEvent[];
  evening: Evening | null;
  /** The other days of the week, for "move to". */
  week: readonly PlanDay[];
  past: boolean;
  onChange: () => void;
  onPick: (day: PlanDay) => void;
  onMove: (from: string, to: string) => void;
  /** A change of leftovers was written: says it (a status line) and reads the week again. */
  onSaid: (text: string) => void;
}

/** The dish as the card shows it: its picture, title (a link to read it), minutes and portions. */
function Dish({ day, dish }: { day: PlanDay; dish: Recipe | undefined }) {
  const m = t.value;
  const link = dishLink(day);
  const minutes = minutesOf(dish);
  // (A day whose closing event is being undone has no portions counted yet: none are said.) A day cooked for
  // leftovers too says its own table's portions, then what it makes extra for whom.
  const extra = day.leftoversFor.reduce((n, e) => n + e.portions, 0);
  const own = day.portions - extra;
  const about = [minutes !== null ? m.minutes(minutes) : null, own > 0 ? m.portions(own) : null].filter((x) => x !== null).join(' · ');
  return (
    <div class="dish-card">
      {dish?.image ? <img src={photoSrc(dish.image)} alt="" width={64} height={64} loading="lazy" decoding="async" /> : day.recipeId !== null && <span class="thumb-none" aria-hidden="true" />}
      <div class="dish-text">
        {day.leftovers ? (
          <p class="dish leftovers">{m.leftoversOf(day.leftovers.recipeTitle, weekday(day.leftovers.of))}</p>
        ) : day.recipeId === null ? (
          <p class="dish none">{m.noDish}</p>
        ) : (
          <p class="dish">{link ? <a href={link}>{day.recipeTitle}</a> : day.recipeTitle}</p>
        )}
        <p class="muted">{day.cookedAtHome ? about : m.closedDay}</p>
        {day.leftoversFor.map((e) => (
          <p key={e.date} class="extra">
            {m.leftoversExtra(e.portions, weekday(e.date))}
          </p>
        ))}
      </div>
    </div>
  );
}

/** A day of the week as a compact card: its dish, its events as chips, a busy evening, one line of warning, and actions. */
export function Day(props: DayProps) {
  const { day, events, evening } = props;
  const m = t.value;
  const d = useDay(props);
  // An event removed a moment ago, still waiting for "undo", is not shown.
  const shownEvents = events.filter((e) => !hiddenByUndo.value.has(`event:${e.id}`));
  const { adult, act } = d;
  const id = `day-${day.date}`;
  const isToday = day.date === props.now;
  // A Junior may say she is away from today through two weeks on; other days offer her nothing to change.
  const mayChange = adult || (day.date >= props.now && day.date <= addDays(props.now, JUNIOR_DAYS));
  const dish = day.recipeId !== null ? props.dishes.get(day.recipeId) : undefined;
  // While the event that closed the day waits for "undo", the day reads as it will be: cooked at home.
  const closes = (e: MealEvent) => e.eventType === 'EatingOut' || e.eventType === 'Travel';
  const shown: PlanDay = !day.cookedAtHome && !shownEvents.some(closes) ? { ...day, cookedAtHome: true } : day;
  const warning = warningText(dayWarning(shown, minutesOf(dish), evening?.cookingMinutes ?? null), day.recipeTitle ?? '');
  const classes = ['day', isToday ? 'today' : '', props.past ? 'past' : ''].filter((c) => c !== '').join(' ');
  const drop = adult
    ? {
        onDragOver: (e: DragEvent) => {
          if (e.dataTransfer?.types.includes('application/x-dinner-day')) e.preventDefault();
        },
        onDrop: (e: DragEvent) => {
          const from = e.dataTransfer?.getData('application/x-dinner-day');
          e.preventDefault();
          if (from && from !== day.date) props.onMove(from, day.date);
        },
      }
    : {};
  return (
    <li class={classes} aria-labelledby={`${id}-h`} aria-current={isToday ? 'date' : undefined} {...drop}>
      <h2 id={`${id}-h`}>
        {dayName(day.date)}
        {isToday && <span class="badge">{m.today}</span>}
      </h2>
      <div
        class="dish-drag"
        draggable={adult && day.recipeId !== null}
        onDragStart={(e) => {
          e.dataTransfer?.setData('application/x-dinner-day', day.date);
          if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
        }}
      >
        <Dish day={shown} dish={dish} />
      </div>
      {(shownEvents.length > 0 || evening?.busy) && (
        <ul class="chips" aria-label={m.eventsOf(weekday(day.date))}>
          {evening?.busy && <li class="chip busy">{m.busyUntil(evening.busy.title, evening.busy.endTime)}</li>}
          {shownEvents.map((e) => (
            <li key={e.id} class="chip">
              <span>{describe(e)}</span>
              {d.mayRemove(e) && (
                <button type="button" class="chip-remove" disabled={act.busy} onClick={() => d.removeEvent(e, m.eventRemoved(describe(e), weekday(day.date)))} aria-label={`${m.removeEvent}: ${describe(e)}`}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FixedDinner householdId={props.householdId} day={shown} />
      {warning && <p class="warn">{warning}</p>}
      <ServingNotes notes={day.servingNotes} />
      {mayChange && (
        <div class="row day-actions">
          {adult && shown.cookedAtHome && (
            <button type="button" class="secondary" aria-label={m.chooseDishFor(day.recipeId === null ? m.chooseDish : m.changeDish, dayName(day.date))} onClick={() => props.onPick(day)}>
              {day.recipeId === null ? m.chooseDish : m.changeDish}
            </button>
          )}
          {adult && day.recipeId !== null && <MoveDish day={day} week={props.week} busy={act.busy} onMove={(to) => props.onMove(day.date, to)} />}
          {adult && day.recipeId !== null && shown.cookedAtHome && <CookDouble householdId={props.householdId} planId={props.planId} day={day} week={props.week} said={props.onSaid} />}
          {adult && day.leftoversOf !== null && <ClearLeftovers householdId={props.householdId} planId={props.planId} day={day} busy={act.busy} said={props.onSaid} />}
          {mayChange && <DayChange id={id} date={day.date} day={d} />}
        </div>
      )}
      <Problem error={act.error} />
    </li>
  );
}
