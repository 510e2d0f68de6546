import type { IsoDate } from '../kernel/dates.js';
import type { AccountId, HouseholdId, MemberId } from '../kernel/ids.js';

/**
 * Calendar feeds a household reads so that the planner knows which evenings are taken: ICS addresses an adult
 * adds, and device feeds each member's phone pushes from its own calendars.
 */
export const CALENDAR_FEED_KINDS = ['Ics', 'Device'] as const;
export type CalendarFeedKind = (typeof CALENDAR_FEED_KINDS)[number];

/**
 * One entry of a day, in the household's time zone. Times are wall-clock "HH:MM". A timed entry with
 * startTime null began on an earlier day; one with endTime null runs to midnight or beyond. All-day entries carry
 * no times.
 */
export interface CalendarEvent {
  readonly title: string;
  readonly date: IsoDate;
  readonly startTime: string | null;
  readonly endTime: string | null;
  readonly isAllDay: boolean;
  readonly location: string | null;
}

interface FeedCommon {
  readonly id: string;
  readonly householdId: HouseholdId;
  readonly name: string;
  readonly createdAt: Date;
  /** ICS: the last successful read (null before); Device: the last sync. */
  readonly syncedAt: Date | null;
  /** ICS: the entries that read found in its window; Device: the events kept by the last sync. */
  readonly eventCount: number | null;
}

export interface IcsFeed extends FeedCommon {
  readonly kind: 'Ics';
  /** The whole address; only the create answer shows it, every list masks it to scheme and host. */
  readonly url: string;
}

/** Keyed by the login that pushed it (account, through its member row) and the phone's deviceKey. */
export interface DeviceFeed extends FeedCommon {
  readonly kind: 'Device';
  readonly ownerAccountId: AccountId;
  readonly ownerMemberId: MemberId;
  readonly deviceKey: string;
}

export type CalendarFeed = IcsFeed | DeviceFeed;

/** Length bounds of feed names, feed URLs, device keys and event titles and locations. */
export const FEED_NAME_MAX = 80;
export const FEED_URL_MAX = 2048;
export const DEVICE_KEY_MAX = 128;
export const EVENT_TITLE_MAX = 200;
export const EVENT_LOCATION_MAX = 200;
/** Events kept by one device sync (the earliest first). */
export const DEVICE_EVENTS_KEPT = 500;
/** Events one sync request may carry at all (more is 400 value_too_long). */
export const DEVICE_EVENTS_SENT_MAX = 2000;
/** A device sync keeps events dated from yesterday through today + 31, in the household's time zone. */
export const DEVICE_DAYS_BACK = 1;
export const DEVICE_DAYS_AHEAD = 31;
/** calendar-events: to defaults to from + 14 days; to later than from + 31 days is moved back to it. */
export const WINDOW_DEFAULT_DAYS = 14;
export const WINDOW_MAX_DAYS = 31;
/** The dinner hour starts at the household's dinnerTime and lasts this long. */
export const DINNER_HOUR_MINUTES = 60;
/** The one error text of a feed slice that could not be read, whatever the reason. */
export const FEED_UNREADABLE = 'feed_unreadable';
