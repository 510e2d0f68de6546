import type { FeedEvent } from '../../ports/calendar-fetcher.js';
import { addDays, type IsoDate } from '../kernel/dates.js';
import { DINNER_HOUR_MINUTES, type CalendarEvent } from './types.js';
import { minutesOf, wallClockAt } from './wall-clock.js';

const later = (a: IsoDate, b: IsoDate) => (a > b ? a : b);
const earlier = (a: IsoDate, b: IsoDate) => (a < b ? a : b);

function* datesFrom(first: IsoDate, last: IsoDate): Generator<IsoDate> {
  for (let d = first; d <= last; d = addDays(d, 1)) yield d;
}

/**
 * One ICS occurrence as entries of the days it touches inside [from, to], on the household's wall clock. A timed
 * occurrence gives one entry per day: the first carries its start time, the last its end time; a day it began
 * before has startTime null, a day it runs past has endTime null (an end at exactly midnight does not touch the
 * next day). An all-day occurrence gives one all-day entry per date from its start up to its (exclusive) end.
 */
export function dayEntries(e: FeedEvent, timeZone: string, from: IsoDate, to: IsoDate): CalendarEvent[] {
  const base = { title: e.title, location: e.location };
  if (e.isAllDay) {
    const last = e.endDate > e.startDate ? addDays(e.endDate, -1) : e.startDate;
    return [...datesFrom(later(from, e.startDate), earlier(to, last))].map((date) => ({ ...base, date, startTime: null, endTime: null, isAllDay: true }));
  }
  const start = wallClockAt(timeZone, e.start);
  const end = e.end.getTime() > e.start.getTime() ? wallClockAt(timeZone, e.end) : start;
  const endsAtMidnight = end.date > start.date && end.time === '00:00';
  const last = endsAtMidnight ? addDays(end.date, -1) : end.date;
  return [...datesFrom(later(from, start.date), earlier(to, last))].map((date) => ({
    ...base,
    date,
    startTime: date === start.date ? start.time : null,
    endTime: date === end.date ? end.time : null,
    isAllDay: false,
  }));
}

const byNullFirst = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
const byNullLast = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/** The order of a day's entries: date, all-day first, start (earlier days first), end, title, location. */
export function compareEntries(a: CalendarEvent, b: CalendarEvent): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (a.isAllDay !== b.isAllDay) return a.isAllDay ? -1 : 1;
  return byNullFirst(a.startTime, b.startTime) || byNullLast(a.endTime, b.endTime) || byNullFirst(a.title, b.title) || byNullFirst(a.location, b.location);
}

/** The span an entry covers on its own day, in minutes since midnight. */
function spanOf(e: CalendarEvent): { start: number; end: number } {
  const start = e.startTime === null ? 0 : minutesOf(e.startTime);
  let end = e.endTime === null ? 24 * 60 : minutesOf(e.endTime);
  // A phone's entry that ends before it starts goes on past midnight.
  if (end < start) end = 24 * 60;
  return { start, end };
}

/**
 * Whether a timed entry touches the dinner hour [dinnerTime, dinnerTime + 60 min): it overlaps the hour, or, when
 * it has no length, it starts inside it. All-day entries never do: birthdays and holidays say nothing of the
 * evening.
 */
export function touchesDinnerHour(e: CalendarEvent, dinnerTime: string): boolean {
  if (e.isAllDay) return false;
  const dinner = minutesOf(dinnerTime);
  const { start, end } = spanOf(e);
  return end > start ? start < dinner + DINNER_HOUR_MINUTES && end > dinner : start >= dinner && start < dinner + DINNER_HOUR_MINUTES;
}

export interface BusyEvening {
  readonly date: IsoDate;
  readonly title: string;
  readonly startTime: string | null;
  readonly endTime: string | null;
}

/**
 * Per date, the one entry that touches its dinner hour: of several, the earliest start (began an earlier day
 * first), then title, then the earliest end, then the feed listed first. Dates nothing touches are left out.
 */
export function busyEvenings(entriesByFeed: readonly (readonly CalendarEvent[])[], dinnerTime: string): BusyEvening[] {
  const chosen = new Map<IsoDate, { e: CalendarEvent; start: number; end: number }>();
  for (const entries of entriesByFeed) {
    for (const e of entries) {
      if (!touchesDinnerHour(e, dinnerTime)) continue;
      const span = spanOf(e);
      const best = chosen.get(e.date);
      const better =
        !best || span.start < best.start || (span.start === best.start && (e.title < best.e.title || (e.title === best.e.title && span.end < best.end)));
      if (better) chosen.set(e.date, { e, ...span });
    }
  }
  return [...chosen.values()]
    .map(({ e }) => ({ date: e.date, title: e.title, startTime: e.startTime, endTime: e.endTime }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Entries that end this long or more before the dinner hour's end leave time enough to cook anything. */
export const COOKING_LOOKBACK_MINUTES = 180;

/** What keeps the family from the stove on an evening, and the minutes it leaves to cook. */
export interface CookingWindow {
  readonly title: string;
  readonly endTime: string | null;
  readonly minutesLeft: number;
}

/**
 * The time a day's calendar leaves to cook (the planner's busy evenings): the family may eat as late as the end of
 * the dinner hour [servingTime, servingTime + 60 min), so an entry that has begun by the serving time leaves the
 * minutes from its end to the end of that hour (none when it runs past it). An entry that starts later in the
 * dinner hour leaves cooking before it free; all-day entries say nothing of the evening. Of several, the one that
 * leaves least; null when none limits the day.
 */
export function cookingWindow(entries: readonly CalendarEvent[], servingTime: string): CookingWindow | null {
  const latest = minutesOf(servingTime) + DINNER_HOUR_MINUTES;
  let tightest: CookingWindow | null = null;
  for (const e of entries) {
    if (e.isAllDay) continue;
    const { start, end } = spanOf(e);
    if (start > minutesOf(servingTime) || end <= latest - COOKING_LOOKBACK_MINUTES) continue;
    const minutesLeft = Math.max(0, latest - end);
    if (tightest === null || minutesLeft < tightest.minutesLeft) tightest = { title: e.title, endTime: e.endTime, minutesLeft };
  }
  return tightest;
}
