import type { Account } from '../accounts/types.js';
import { requireMember } from '../households/access.js';
import { addDays, dateIn } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { compareEntries } from './day-entries.js';
import { viewOf, type CalendarFeedDeps, type CalendarFeedView, type NotMember } from './feeds.js';
import { DEVICE_DAYS_AHEAD, DEVICE_DAYS_BACK, DEVICE_EVENTS_KEPT, type CalendarEvent } from './types.js';

export interface DeviceCalendarInput {
  readonly deviceKey: string;
  readonly name: string;
  readonly events: readonly CalendarEvent[];
}

/**
 * The events a sync keeps: dated from yesterday through today + 31 in the household's time zone, all-day ones
 * without times, in entry order (date, all-day first, start, end, title, location), the first 500 of them.
 */
export function keptDeviceEvents(events: readonly CalendarEvent[], today: string): CalendarEvent[] {
  const first = addDays(today, -DEVICE_DAYS_BACK);
  const last = addDays(today, DEVICE_DAYS_AHEAD);
  return events
    .filter((e) => e.date >= first && e.date <= last)
    .map((e) => ({
      title: e.title,
      date: e.date,
      startTime: e.isAllDay ? null : e.startTime,
      endTime: e.isAllDay ? null : e.endTime,
      isAllDay: e.isAllDay,
      location: e.location,
    }))
    .sort(compareEntries)
    .slice(0, DEVICE_EVENTS_KEPT);
}

/**
 * PUT calendar-feeds/device (any member): the feed of the caller's login and this deviceKey, created on the first
 * sync and replaced whole by each later one (name and events). Sending the same body again leaves the same feed.
 */
export async function syncDeviceCalendar(
  deps: Pick<CalendarFeedDeps, 'calendarFeeds' | 'households' | 'clock' | 'ids'>,
  caller: Account,
  householdId: HouseholdId,
  input: DeviceCalendarInput,
): Promise<Result<CalendarFeedView, NotMember>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const household = await deps.households.byId(householdId);
  if (!household) return fail({ type: 'household-not-found' });
  const at = deps.clock.now();
  const feed = await deps.calendarFeeds.syncDevice(householdId, {
    newId: deps.ids.newId(),
    ownerAccountId: caller.id,
    ownerMemberId: member.value.id,
    deviceKey: input.deviceKey,
    name: input.name.trim(),
    events: keptDeviceEvents(input.events, dateIn(household.timeZoneId, at)),
    at,
  });
  return ok(viewOf(feed, caller, { deviceKey: input.deviceKey }));
}

/** DELETE calendar-feeds/device/{deviceKey} (any member): only a feed of the caller's own login. */
export async function deleteDeviceCalendar(
  deps: Pick<CalendarFeedDeps, 'calendarFeeds' | 'households'>,
  caller: Account,
  householdId: HouseholdId,
  deviceKey: string,
): Promise<Result<void, NotMember | ErrorOf<'calendar-feed-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  if (!(await deps.calendarFeeds.removeDevice(householdId, caller.id, deviceKey))) return fail({ type: 'calendar-feed-not-found' });
  return ok(undefined);
}
