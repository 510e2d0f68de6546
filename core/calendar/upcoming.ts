import { CalendarFetchFailed } from '../../ports/calendar-fetcher.js';
import type { Account } from '../accounts/types.js';
import { requireMember } from '../households/access.js';
import { addDays, dateIn, daysBetween, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { busyEvenings, compareEntries, dayEntries, type BusyEvening } from './day-entries.js';
import type { CalendarFeedDeps, NotMember } from './feeds.js';
import { WINDOW_DEFAULT_DAYS, WINDOW_MAX_DAYS, type CalendarEvent, type CalendarFeed } from './types.js';
import { instantAt } from './wall-clock.js';

/** One feed's part of the answer. `unreadable` says why for the logs; callers are shown one fixed text. */
export interface FeedSlice {
  readonly feed: CalendarFeed;
  readonly events: readonly CalendarEvent[];
  readonly unreadable: { readonly reason: string } | null;
}

export interface UpcomingCalendar {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly feeds: readonly FeedSlice[];
  readonly busyEvenings: readonly BusyEvening[];
}

/**
 * The window asked for: from defaults to today in the household's zone, to to from + 14 days; both are included.
 * to before from is refused; to later than from + 31 days is moved back to from + 31.
 */
export function windowOf(today: IsoDate, query: { from: IsoDate | null; to: IsoDate | null }): Result<{ from: IsoDate; to: IsoDate }, ErrorOf<'calendar-window-invalid'>> {
  const from = query.from ?? today;
  const to = query.to ?? addDays(from, WINDOW_DEFAULT_DAYS);
  if (to < from) return fail({ type: 'calendar-window-invalid' });
  return ok({ from, to: daysBetween(from, to) > WINDOW_MAX_DAYS ? addDays(from, WINDOW_MAX_DAYS) : to });
}

// The kind of failure only: a fetcher's message may quote the address, and a private feed's address is a secret.
const reasonOf = (err: unknown): string => (err instanceof CalendarFetchFailed ? err.reason : err instanceof Error ? err.name : 'unknown');

/**
 * Every feed of the household as its own slice of entries in [from, to], on the household's wall clock: the ICS
 * feeds are read side by side, and one that cannot be read (whatever the reason) gives an empty slice with the
 * reason and hides no other. For the calendar screen and the planner's busy evenings.
 */
export async function readFeeds(
  deps: Pick<CalendarFeedDeps, 'calendarFeeds' | 'calendarFetcher'>,
  householdId: HouseholdId,
  zone: string,
  from: IsoDate,
  to: IsoDate,
): Promise<FeedSlice[]> {
  const [feeds, deviceEvents] = await Promise.all([deps.calendarFeeds.feedsOf(householdId), deps.calendarFeeds.deviceEventsBetween(householdId, from, to)]);
  const start = instantAt(zone, from, '00:00');
  const end = instantAt(zone, addDays(to, 1), '00:00');
  return Promise.all(
    feeds.map(async (feed): Promise<FeedSlice> => {
      if (feed.kind === 'Device') return { feed, events: deviceEvents.get(feed.id) ?? [], unreadable: null };
      try {
        const occurrences = await deps.calendarFetcher.eventsBetween(feed.url, start, end);
        return { feed, events: occurrences.flatMap((o) => dayEntries(o, zone, from, to)).sort(compareEntries), unreadable: null };
      } catch (err) {
        return { feed, events: [], unreadable: { reason: reasonOf(err) } };
      }
    }),
  );
}

/**
 * GET calendar-events (any member, Junior too): every feed of the household as its own slice, on the household's
 * wall clock, and per day the event that takes its dinner hour. The ICS feeds are read side by side; one that
 * cannot be read (whatever the reason) gives an empty slice with an error and hides no other. A successful read
 * is recorded on the feed (syncedAt, eventCount).
 */
export async function upcomingCalendarEvents(
  deps: CalendarFeedDeps,
  caller: Account,
  householdId: HouseholdId,
  query: { from: IsoDate | null; to: IsoDate | null },
): Promise<Result<UpcomingCalendar, NotMember | ErrorOf<'calendar-window-invalid'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const household = await deps.households.byId(householdId);
  if (!household) return fail({ type: 'household-not-found' });
  const zone = household.timeZoneId;
  const window = windowOf(dateIn(zone, deps.clock.now()), query);
  if (!window.ok) return window;
  const { from, to } = window.value;
  const slices = await readFeeds(deps, householdId, zone, from, to);
  const readAt = deps.clock.now();
  for (const s of slices) {
    if (s.feed.kind === 'Ics' && s.unreadable === null) await deps.calendarFeeds.markRead(householdId, s.feed.id, readAt, s.events.length);
  }
  return ok({ from, to, feeds: slices, busyEvenings: busyEvenings(slices.map((s) => s.events), household.dinnerTime) });
}
