import type { CalendarEvent, CalendarFeed, DeviceFeed, IcsFeed } from '../core/calendar/types.js';
import type { IsoDate } from '../core/kernel/dates.js';
import type { AccountId, HouseholdId, MemberId } from '../core/kernel/ids.js';

/** What one device sync writes. */
export interface DeviceSync {
  /** The id of the feed when this sync creates it; an existing feed keeps its own. */
  readonly newId: string;
  readonly ownerAccountId: AccountId;
  readonly ownerMemberId: MemberId;
  readonly deviceKey: string;
  readonly name: string;
  /** Stored in the order given. */
  readonly events: readonly CalendarEvent[];
  readonly at: Date;
}

/**
 * The calendar feeds of a household and the events phones pushed. Every read and write is scoped by the
 * household; a feed goes with its household, and a device feed with the member row or account that pushed it.
 */
export interface CalendarFeedStore {
  /** Every feed of the household (both kinds), by createdAt, then id. */
  feedsOf(householdId: HouseholdId): Promise<CalendarFeed[]>;
  byId(householdId: HouseholdId, feedId: string): Promise<CalendarFeed | null>;
  addIcs(feed: IcsFeed): Promise<void>;
  /** Records a successful read of an ICS feed; nothing when the household has no such ICS feed (any more). */
  markRead(householdId: HouseholdId, feedId: string, at: Date, eventCount: number): Promise<void>;
  /**
   * The device feed of (account, deviceKey) in the household: created on the first sync, replaced whole after
   * (name, events, syncedAt = at, eventCount = events kept; id and createdAt stay), in one transaction, so that
   * concurrent syncs of one phone leave one feed holding one of the event lists whole.
   */
  syncDevice(householdId: HouseholdId, sync: DeviceSync): Promise<DeviceFeed>;
  /**
   * The events of the household's device feeds with from <= date <= to, by feed id, each in stored order (a feed
   * with none in the range is absent).
   */
  deviceEventsBetween(householdId: HouseholdId, from: IsoDate, to: IsoDate): Promise<Map<string, CalendarEvent[]>>;
  /** Removes a feed (with its events); false when the household has no such feed. */
  remove(householdId: HouseholdId, feedId: string): Promise<boolean>;
  /** Removes the device feed of (account, deviceKey); false when there is none. */
  removeDevice(householdId: HouseholdId, accountId: AccountId, deviceKey: string): Promise<boolean>;
}
