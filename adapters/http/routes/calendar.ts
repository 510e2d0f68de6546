import * as v from 'valibot';
import { deleteDeviceCalendar, syncDeviceCalendar } from '../../../core/calendar/device-feeds.js';
import { createCalendarFeed, deleteCalendarFeed, listCalendarFeeds, type CalendarFeedDeps, type CalendarFeedView } from '../../../core/calendar/feeds.js';
import {
  CALENDAR_FEED_KINDS,
  DEVICE_DAYS_AHEAD,
  DEVICE_EVENTS_KEPT,
  DEVICE_EVENTS_SENT_MAX,
  DEVICE_KEY_MAX,
  DINNER_HOUR_MINUTES,
  EVENT_LOCATION_MAX,
  EVENT_TITLE_MAX,
  FEED_NAME_MAX,
  FEED_UNREADABLE,
  FEED_URL_MAX,
  WINDOW_DEFAULT_DAYS,
  WINDOW_MAX_DAYS,
  type CalendarEvent,
} from '../../../core/calendar/types.js';
import { upcomingCalendarEvents } from '../../../core/calendar/upcoming.js';
import type { Logger } from '../../../ports/logger.js';
import { callerHouseholdAnd, callerHouseholdAndBody, created, mount, noContent, resource } from '../route.js';
import { IsoDateTime, Uuid, IsoDate } from '../schemas.js';

const WallTime = v.nullable(v.pipe(v.string(), v.maxLength(5, 'HH:MM'), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 00:00 to 23:59')));
const notBlank = v.check((s: string) => s.trim().length > 0, 'must not be blank');
const Bounded = (max: number) => v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`));
const FeedName = v.pipe(Bounded(FEED_NAME_MAX), notBlank);
const DeviceKey = v.pipe(Bounded(DEVICE_KEY_MAX), notBlank);

const CreateCalendarFeedRequest = v.object({ name: FeedName, url: v.pipe(Bounded(FEED_URL_MAX), notBlank) });
const DeviceCalendarEvent = v.object({
  title: Bounded(EVENT_TITLE_MAX),
  date: IsoDate,
  startTime: WallTime,
  endTime: WallTime,
  isAllDay: v.boolean(),
  location: v.nullable(Bounded(EVENT_LOCATION_MAX)),
});
const SyncDeviceCalendarRequest = v.object({
  deviceKey: DeviceKey,
  name: FeedName,
  events: v.pipe(v.array(DeviceCalendarEvent), v.maxLength(DEVICE_EVENTS_SENT_MAX, `at most ${DEVICE_EVENTS_SENT_MAX} events`)),
});

const CalendarFeedResponse = v.object({
  id: Uuid,
  name: v.string(),
  url: v.string(),
  createdAt: IsoDateTime,
  kind: v.picklist(CALENDAR_FEED_KINDS),
  syncedAt: v.nullable(IsoDateTime),
  eventCount: v.nullable(v.number()),
  isThisDevice: v.boolean(),
  isMine: v.boolean(),
});
const CalendarEventResponse = v.object({
  title: v.string(),
  date: v.string(),
  startTime: v.nullable(v.string()),
  endTime: v.nullable(v.string()),
  isAllDay: v.boolean(),
  location: v.nullable(v.string()),
});
const CalendarFeedEventsResponse = v.object({ feedId: Uuid, feedName: v.string(), events: v.array(CalendarEventResponse), error: v.nullable(v.string()) });
const BusyEveningResponse = v.object({ date: v.string(), title: v.string(), startTime: v.nullable(v.string()), endTime: v.nullable(v.string()) });
const UpcomingCalendarEventsResponse = v.object({
  feeds: v.array(CalendarFeedEventsResponse),
  from: v.string(),
  to: v.string(),
  busyEvenings: v.array(BusyEveningResponse),
});

const FeedPath = v.object({ householdId: Uuid, feedId: Uuid });
const DevicePath = v.object({ householdId: Uuid, deviceKey: DeviceKey });
const WindowQuery = v.object({ from: v.optional(IsoDate), to: v.optional(IsoDate) });
const FeedsQuery = v.object({ deviceKey: v.optional(DeviceKey) });

const feedResponse = (f: CalendarFeedView): v.InferOutput<typeof CalendarFeedResponse> => ({
  id: f.id,
  name: f.name,
  url: f.url,
  createdAt: f.createdAt.toISOString(),
  kind: f.kind,
  syncedAt: f.syncedAt === null ? null : f.syncedAt.toISOString(),
  eventCount: f.eventCount,
  isThisDevice: f.isThisDevice,
  isMine: f.isMine,
});
const eventResponse = (e: CalendarEvent): v.InferOutput<typeof CalendarEventResponse> => ({
  title: e.title,
  date: e.date,
  startTime: e.startTime,
  endTime: e.endTime,
  isAllDay: e.isAllDay,
  location: e.location,
});

const FEED_DOC =
  `An ICS feed's url is masked to scheme and host ("https://calendar.example.com") in every answer but the create answer. ` +
  'A device feed has url "" (a phone\'s calendars have no address). isMine marks the device feeds pushed by the caller\'s login; ' +
  'isThisDevice the one of those with the deviceKey the caller named. ICS feeds: syncedAt is the last time calendar-events read ' +
  'the feed successfully and eventCount the entries that read found in its window (both null before a first good read). Device ' +
  'feeds: syncedAt is the last sync and eventCount the events it kept.';
const ENTRY_DOC =
  "Entries are on the household's wall clock (its timeZoneId), HH:MM. A timed ICS event is listed once per day of the window it " +
  'touches: startTime on the day it begins (null on later days), endTime on the day it ends (null on a day it runs past; an end ' +
  'at exactly midnight does not touch the next day). An all-day event is listed as an all-day entry on each date from its start ' +
  'up to its exclusive end. Recurring events are expanded into their occurrences. Each slice is ordered by date, all-day first, ' +
  'then start (null first), end, title. Device feeds answer the events the phone pushed, as pushed.';
const BUSY_DOC =
  `busyEvenings: per date of the window, at most one entry: a timed entry that touches the dinner hour, [dinnerTime, dinnerTime + ` +
  `${DINNER_HOUR_MINUTES} min) on the household's wall clock (dinnerTime defaults to 18:00). Touching means overlapping that hour; ` +
  'an entry with startTime null counts from 00:00, one with endTime null (or an endTime before its startTime) up to midnight, and ' +
  'one of no length touches when it starts inside the hour. All-day entries never make an evening busy. Of several, the one with the ' +
  'earliest start wins, then the first title (code-point order), then the earliest end, then the feed listed first. Dates nothing ' +
  'touches are left out; the list is in date order.';

const { route, handledHouseholdRoute, householdRoute } = resource<CalendarFeedDeps & { readonly logger: Logger }>('Calendar feeds');

const base = '/api/v1/households/{householdId}';

const LIST_UPCOMING_CALENDAR_EVENTS_DOC =
  `Any member reads, Junior too. from and to are dates, both included: from defaults to today in the household's time zone, ` +
  `to to from + ${WINDOW_DEFAULT_DAYS} days. A to later than from + ${WINDOW_MAX_DAYS} days is clamped to from + ${WINDOW_MAX_DAYS} ` +
  '(the answer\'s from and to are the window used); a to before from is 400 calendar_window_invalid. Every feed of the household ' +
  `(Ics and Device), oldest first, is one slice; an ICS feed that cannot be read (unreachable, refused address, timeout, too large, ` +
  `error status, not iCalendar) has no events and error "${FEED_UNREADABLE}", and hides no other slice; error is null otherwise. ` +
  `${ENTRY_DOC} ${BUSY_DOC}`;
const CREATE_CALENDAR_FEED_DOC =
  `name 1 to ${FEED_NAME_MAX} characters (stored trimmed, blank is 400 validation_failed), url at most ${FEED_URL_MAX} characters ` +
  '(longer is 400 value_too_long). The address must be http or https on the scheme\'s standard port, and its host neither a ' +
  'loopback, private, link-local, unique-local or otherwise special IP literal, nor a special-use name (localhost and every ' +
  'name under it, and names under .local, .internal, .home.arpa, .invalid and .test, in any case and with or without a ' +
  'trailing dot), nor a name resolving to one of those addresses; else 400 ' +
  'calendar_url_forbidden and nothing is stored. A name that does not resolve is accepted: its slice of calendar-events then ' +
  'reports the fixed error. Every later fetch checks the address it connects to again. Nothing is fetched here. The answer ' +
  `carries the whole url, the only one that does. ${FEED_DOC}`;
const SYNC_DEVICE_CALENDAR_DOC =
  "Any member. The feed is keyed by the caller's login and deviceKey: the first sync creates it, every later one replaces it " +
  'whole (name and events); the same body sent again leaves the same feed (retry-safe). Of the events sent, those dated from ' +
  `yesterday through today + ${DEVICE_DAYS_AHEAD} days (the household's today) are kept, all-day ones without times, ordered by ` +
  `date, all-day first, start, end, title, location; of those the first ${DEVICE_EVENTS_KEPT} are kept and the rest dropped. A ` +
  `request may carry at most ${DEVICE_EVENTS_SENT_MAX} events (more is 400 value_too_long). deviceKey 1 to ${DEVICE_KEY_MAX} ` +
  `characters, name 1 to ${FEED_NAME_MAX}; each event: date YYYY-MM-DD, startTime and endTime HH:MM or null (an endTime before ` +
  `startTime runs past midnight), title at most ${EVENT_TITLE_MAX} characters, location at most ${EVENT_LOCATION_MAX} or null. ` +
  `syncedAt is now, eventCount the events kept. ${FEED_DOC}`;

const listUpcomingCalendarEventsRoute = handledHouseholdRoute({
  method: 'GET',
  path: `${base}/calendar-events`,
  operationId: 'listUpcomingCalendarEvents',
  auth: 'session-or-token',
  summary: 'The events of every calendar feed of the household, and the busy evenings',
  description: LIST_UPCOMING_CALENDAR_EVENTS_DOC,
  query: WindowQuery,
  responses: { 200: { description: 'The window, its slices and busy evenings', schema: UpcomingCalendarEventsResponse } },
  errors: ['calendar-window-invalid'],
  handle: async (ctx, { deps, caller, params, query, refuse }) => {
    const result = await upcomingCalendarEvents(deps, caller.account, params.householdId, { from: query.from ?? null, to: query.to ?? null });
    if (!result.ok) throw refuse(result.error);
    const { from, to, feeds, busyEvenings } = result.value;
    for (const s of feeds) if (s.unreadable) deps.logger.warn('calendar feed unreadable', { householdId: params.householdId, feedId: s.feed.id, reason: s.unreadable.reason });
    ctx.body = {
      feeds: feeds.map((s) => ({ feedId: s.feed.id, feedName: s.feed.name, events: s.events.map(eventResponse), error: s.unreadable ? FEED_UNREADABLE : null })),
      from,
      to,
      busyEvenings: busyEvenings.map((b) => ({ date: b.date, title: b.title, startTime: b.startTime, endTime: b.endTime })),
    };
  },
});

const listCalendarFeedsRoute = householdRoute({
  method: 'GET',
  path: `${base}/calendar-feeds`,
  operationId: 'listCalendarFeeds',
  auth: 'session-or-token',
  summary: 'The calendar feeds of the household, both kinds',
  description: `Any member reads. Oldest first (createdAt, then id). ${FEED_DOC}`,
  query: FeedsQuery,
  responses: { 200: { description: 'The feeds', schema: v.array(CalendarFeedResponse) } },
  run: ({ deps, caller, params, query }) => listCalendarFeeds(deps, caller.account, params.householdId, { deviceKey: query.deviceKey ?? null }),
  reply: (value) => value.map(feedResponse),
});

const createCalendarFeedRoute = householdRoute({
  method: 'POST',
  path: `${base}/calendar-feeds`,
  operationId: 'createCalendarFeed',
  auth: 'session-or-token',
  summary: 'Add an ICS calendar feed (adults only)',
  description: CREATE_CALENDAR_FEED_DOC,
  body: CreateCalendarFeedRequest,
  ...created('Created', CalendarFeedResponse),
  errors: ['adults-only', 'calendar-url-forbidden'],
  run: callerHouseholdAndBody(createCalendarFeed),
  reply: feedResponse,
});

const syncDeviceCalendarRoute = householdRoute({
  method: 'PUT',
  path: `${base}/calendar-feeds/device`,
  operationId: 'syncDeviceCalendar',
  auth: 'session-or-token',
  summary: "Push a phone's calendar events",
  description: SYNC_DEVICE_CALENDAR_DOC,
  body: SyncDeviceCalendarRequest,
  responses: { 200: { description: 'The device feed after the sync', schema: CalendarFeedResponse } },
  run: callerHouseholdAndBody(syncDeviceCalendar),
  reply: feedResponse,
});

const deleteDeviceCalendarRoute = route({
  method: 'DELETE',
  path: `${base}/calendar-feeds/device/{deviceKey}`,
  operationId: 'deleteDeviceCalendar',
  auth: 'session-or-token',
  summary: "Remove the caller's own device feed",
  description: "Any member, for a feed of the caller's own login only: another member's key, or a key never synced, is 404 calendar_feed_not_found.",
  params: DevicePath,
  ...noContent('Removed'),
  errors: ['household-not-found', 'calendar-feed-not-found'],
  run: callerHouseholdAnd('deviceKey', deleteDeviceCalendar),
});

const deleteCalendarFeedRoute = route({
  method: 'DELETE',
  path: `${base}/calendar-feeds/{feedId}`,
  operationId: 'deleteCalendarFeed',
  auth: 'session-or-token',
  summary: 'Remove a calendar feed (adults only)',
  description:
    'Any ICS feed of the household. A device feed belongs to the login that pushed it: another adult gets 403 ' +
    'calendar_feed_not_yours. An id that is not a feed of this household is 404 calendar_feed_not_found.',
  params: FeedPath,
  ...noContent('Removed'),
  errors: ['household-not-found', 'adults-only', 'calendar-feed-not-found', 'calendar-feed-not-yours'],
  run: callerHouseholdAnd('feedId', deleteCalendarFeed),
});

export const calendarRoutes = (deps: CalendarFeedDeps, logger: Logger) =>
  mount({ ...deps, logger }, [
    listUpcomingCalendarEventsRoute,
    listCalendarFeedsRoute,
    createCalendarFeedRoute,
    syncDeviceCalendarRoute,
    deleteDeviceCalendarRoute,
    deleteCalendarFeedRoute,
  ]);

