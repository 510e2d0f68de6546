import ICAL from 'ical.js';
import type { FeedEvent } from '../../ports/calendar-fetcher.js';
import type { ParsedFeed, Series } from './ics-feed.js';
import { ianaZone, wallClockAsUtc, zonedToInstant } from './zoned-time.js';

/** Bounds that let a hostile feed cost at most a fraction of a second per window. */
export interface ExpansionLimits {
  readonly occurrences: number;
  readonly occurrencesPerSeries: number;
  readonly steps: number;
  readonly stepsPerSeries: number;
}

export const defaultLimits: ExpansionLimits = { occurrences: 2000, occurrencesPerSeries: 2000, steps: 50_000, stepsPerSeries: 5_000 };

const DAY = 86_400_000;

interface Window {
  readonly from: number;
  readonly to: number;
}

interface Budget {
  occurrences: number;
  steps: number;
}

/**
 * The occurrences of a parsed feed overlapping [from, to), sorted by start. All-day dates are matched as UTC days:
 * a date's UTC day always overlaps the same date in any zone, so nothing the household wants is missed, and one
 * day at either edge may come along for the caller to drop by date. Floating times (no TZID, or one that is
 * neither in the feed nor an IANA name) are read as UTC.
 */
export function expand(feed: ParsedFeed, from: Date, to: Date, limits: ExpansionLimits = defaultLimits): FeedEvent[] {
  const window = { from: from.getTime(), to: to.getTime() };
  const budget: Budget = { occurrences: limits.occurrences, steps: limits.steps };
  const out: FeedEvent[] = [];
  for (const series of feed) {
    if (budget.occurrences <= 0 || budget.steps <= 0) break;
    try {
      expandSeries(series, window, budget, limits, out);
    } catch {
      // ical.js gives up on rules it cannot satisfy ("max tries"); such a series shows what it had so far.
    }
  }
  return out.sort((a, b) => startOf(a) - startOf(b));
}

function expandSeries(series: Series, window: Window, budget: Budget, limits: ExpansionLimits, out: FeedEvent[]): void {
  const { master, overrides } = series;
  let left = Math.min(limits.occurrencesPerSeries, budget.occurrences);
  const emit = (e: FeedEvent) => {
    if (left <= 0 || !overlaps(e, window)) return;
    out.push(e);
    left--;
    budget.occurrences--;
  };
  if (isCancelled(master)) return;
  const startZone = tzidOf(master.component, 'dtstart');
  // A RECURRENCE-ID or EXDATE written without TZID in a zoned series means the series' zone, as ical.js reads it.
  const replacedKey = (o: ICAL.Event) => keyOf(o.recurrenceId, tzidOf(o.component, 'recurrence-id') ?? startZone);
  const replaced = new Set(overrides.map(replacedKey));
  const excluded = exdateKeys(master.component, startZone);

  if (!master.isRecurring()) {
    if (!replaced.has(keyOf(master.startDate, startZone))) emit(feedEvent(master, master.startDate, master.endDate, startZone, endZoneOf(master)));
  } else {
    const expansion = new ICAL.RecurExpansion({ component: master.component, dtstart: skipAhead(master, window) ?? master.startDate });
    for (let steps = 0; steps < limits.stepsPerSeries && budget.steps > 0 && left > 0; steps++) {
      budget.steps--;
      const occurrence = expansion.next();
      if (!occurrence || instantOf(occurrence, startZone) >= window.to + DAY) break;
      const key = keyOf(occurrence, startZone);
      if (replaced.has(key) || excluded.has(key) || excluded.has(dayKey(occurrence))) continue;
      const details = master.getOccurrenceDetails(occurrence);
      // A direct exception that ical.js matched by another spelling of its RECURRENCE-ID is emitted below.
      if (details.item !== master && !details.item.modifiesFuture()) continue;
      const zone = tzidOf(details.item.component, 'dtstart');
      emit(feedEvent(details.item, details.startDate, details.endDate, zone, zone));
    }
  }
  // Overrides are emitted on their own times, so one moved into the window from outside it is not lost.
  for (const o of overrides) {
    if (!isCancelled(o) && !excluded.has(replacedKey(o))) emit(feedEvent(o, o.startDate, o.endDate, tzidOf(o.component, 'dtstart'), endZoneOf(o)));
  }
}

/**
 * A start later than DTSTART from which a rule without COUNT yields the same occurrences in the window: whole
 * periods are skipped (days and weeks always, months when the day is at most 28, years when it is not 29 February),
 * so a daily event begun in 1990 costs a handful of steps. It stays three days plus the event's length before the
 * window, so that whatever an iterator makes of a start its BYxxx parts do not match ends before the window.
 */
function skipAhead(event: ICAL.Event, window: Window): ICAL.Time | null {
  const rules = event.component.getAllProperties('rrule');
  const rule = rules.length === 1 ? rules[0]?.getFirstValue() : null;
  if (!(rule instanceof ICAL.Recur) || rule.count) return null;
  const start = event.startDate;
  const lengthMs = Math.max(0, event.duration.toSeconds() * 1000);
  const target = window.from - lengthMs - 3 * DAY;
  const startMs = wallClockAsUtc(start);
  if (target <= startMs) return null;
  const interval = Math.max(1, rule.interval || 1);
  const shifted = start.clone();
  const t = new Date(target);
  if (rule.freq === 'DAILY' || rule.freq === 'WEEKLY') {
    const period = interval * (rule.freq === 'WEEKLY' ? 7 : 1);
    const n = Math.floor((target - startMs) / (period * DAY));
    if (n <= 0) return null;
    shifted.adjust(n * period, 0, 0, 0);
  } else if (rule.freq === 'MONTHLY' && start.day <= 28) {
    const months = t.getUTCFullYear() * 12 + t.getUTCMonth() - (start.year * 12 + start.month - 1) - 1;
    const n = Math.floor(months / interval) * interval;
    if (n <= 0) return null;
    const index = start.year * 12 + start.month - 1 + n;
    shifted.year = Math.floor(index / 12);
    shifted.month = (index % 12) + 1;
  } else if (rule.freq === 'YEARLY' && !(start.month === 2 && start.day === 29)) {
    const n = Math.floor((t.getUTCFullYear() - start.year - 1) / interval) * interval;
    if (n <= 0) return null;
    shifted.year = start.year + n;
  } else return null;
  return shifted;
}

function feedEvent(item: ICAL.Event, start: ICAL.Time, end: ICAL.Time | null, startZone: string | null, endZone: string | null): FeedEvent {
  const title = String(item.summary ?? '').trim();
  const location = String(item.location ?? '').trim() || null;
  if (start.isDate) {
    const startDate = dateOf(start);
    const endDate = end ? dateOf(end) : '';
    // DTEND is exclusive; a missing or non-advancing one makes a one-day event.
    return { title, location, isAllDay: true, startDate, endDate: endDate > startDate ? endDate : nextDay(startDate) };
  }
  const s = instantOf(start, startZone);
  const e = end ? instantOf(end, endZone) : s;
  return { title, location, isAllDay: false, start: new Date(s), end: new Date(Math.max(s, e)) };
}

/** The instant of an iCalendar time: through its VTIMEZONE when the feed has one, else its TZID as an IANA name, else UTC. */
function instantOf(t: ICAL.Time, tzid: string | null): number {
  if (t.zone !== ICAL.Timezone.localTimezone) return t.toUnixTime() * 1000;
  const zone = tzid ? ianaZone(tzid) : null;
  return zone ? zonedToInstant(t, zone) : wallClockAsUtc(t);
}

function overlaps(e: FeedEvent, w: Window): boolean {
  if (e.isAllDay) return Date.parse(`${e.startDate}T00:00:00Z`) < w.to && Date.parse(`${e.endDate}T00:00:00Z`) > w.from;
  const s = e.start.getTime();
  const end = e.end.getTime();
  return s < w.to && (end > w.from || (end === s && s >= w.from));
}

function startOf(e: FeedEvent): number {
  return e.isAllDay ? Date.parse(`${e.startDate}T00:00:00Z`) : e.start.getTime();
}

function keyOf(t: ICAL.Time, tzid: string | null): string {
  return t.isDate ? dayKey(t) : `T${instantOf(t, tzid)}`;
}

function dayKey(t: ICAL.Time): string {
  return `D${dateOf(t)}`;
}

/** EXDATE applied by value here as well: ical.js steps through EXDATEs one per occurrence and can fall behind. */
function exdateKeys(component: ICAL.Component, seriesZone: string | null): Set<string> {
  const keys = new Set<string>();
  for (const p of component.getAllProperties('exdate')) {
    const tzid = p.getParameter('tzid');
    for (const v of p.getValues()) if (v instanceof ICAL.Time) keys.add(keyOf(v, typeof tzid === 'string' ? tzid : seriesZone));
  }
  return keys;
}

function tzidOf(component: ICAL.Component, property: string): string | null {
  const tzid = component.getFirstProperty(property)?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : null;
}

function endZoneOf(e: ICAL.Event): string | null {
  return e.component.hasProperty('dtend') ? tzidOf(e.component, 'dtend') : tzidOf(e.component, 'dtstart');
}

function isCancelled(e: ICAL.Event): boolean {
  return String(e.component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
}

function dateOf(t: ICAL.Time): string {
  return `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
}
