import type { CalendarFeedStore } from '../../ports/calendar-feed-store.js';
import type { CalendarFetcher, OutboundAddressGuard } from '../../ports/calendar-fetcher.js';
import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { CalendarFeed, CalendarFeedKind } from './types.js';

export interface CalendarFeedDeps {
  calendarFeeds: CalendarFeedStore;
  households: HouseholdStore;
  calendarFetcher: CalendarFetcher;
  outboundGuard: OutboundAddressGuard;
  clock: Clock;
  ids: IdGenerator;
}

export type NotMember = ErrorOf<'household-not-found'>;

/** A feed as one caller sees it (CalendarFeedResponse). */
export interface CalendarFeedView {
  readonly id: string;
  readonly name: string;
  /** ICS: scheme and host only, except in the create answer; Device: "" (a phone's feed has no address). */
  readonly url: string;
  readonly createdAt: Date;
  readonly kind: CalendarFeedKind;
  readonly syncedAt: Date | null;
  readonly eventCount: number | null;
  /** A device feed pushed by the caller's login with the deviceKey the caller named. */
  readonly isThisDevice: boolean;
  /** A device feed pushed by the caller's login. */
  readonly isMine: boolean;
}

/** "https://calendar.example" of "https://user@calendar.example/private/abc.ics?key=...". */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}`;
  } catch {
    return '';
  }
}

export function viewOf(feed: CalendarFeed, caller: Account, o: { deviceKey?: string | null; wholeUrl?: boolean } = {}): CalendarFeedView {
  const mine = feed.kind === 'Device' && feed.ownerAccountId === caller.id;
  return {
    id: feed.id,
    name: feed.name,
    url: feed.kind === 'Ics' ? (o.wholeUrl ? feed.url : maskedUrl(feed.url)) : '',
    createdAt: feed.createdAt,
    kind: feed.kind,
    syncedAt: feed.syncedAt,
    eventCount: feed.eventCount,
    isThisDevice: mine && feed.kind === 'Device' && o.deviceKey != null && feed.deviceKey === o.deviceKey,
    isMine: mine,
  };
}

/** GET calendar-feeds: every feed of the household, both kinds, oldest first; any member. */
export async function listCalendarFeeds(
  deps: Pick<CalendarFeedDeps, 'calendarFeeds' | 'households'>,
  caller: Account,
  householdId: HouseholdId,
  query: { deviceKey: string | null },
): Promise<Result<CalendarFeedView[], NotMember>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const feeds = await deps.calendarFeeds.feedsOf(householdId);
  return ok(feeds.map((f) => viewOf(f, caller, { deviceKey: query.deviceKey })));
}

/**
 * POST calendar-feeds (adults): an ICS address that passes the outbound guard. Nothing is fetched here: a name
 * that does not resolve is accepted, and its slice of calendar-events reports the fixed error.
 */
export async function createCalendarFeed(
  deps: Pick<CalendarFeedDeps, 'calendarFeeds' | 'households' | 'outboundGuard' | 'clock' | 'ids'>,
  caller: Account,
  householdId: HouseholdId,
  input: { name: string; url: string },
): Promise<Result<CalendarFeedView, NotMember | ErrorOf<'adults-only' | 'calendar-url-forbidden'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const url = input.url.trim();
  const checked = await deps.outboundGuard.check(url);
  if (!checked.ok) return fail({ type: 'calendar-url-forbidden', reason: checked.reason });
  const feed = {
    id: deps.ids.newId(),
    householdId,
    kind: 'Ics' as const,
    name: input.name.trim(),
    url,
    createdAt: deps.clock.now(),
    syncedAt: null,
    eventCount: null,
  };
  await deps.calendarFeeds.addIcs(feed);
  return ok(viewOf(feed, caller, { wholeUrl: true }));
}

/** DELETE calendar-feeds/{feedId} (adults): any ICS feed; a device feed only by the login that pushed it. */
export async function deleteCalendarFeed(
  deps: Pick<CalendarFeedDeps, 'calendarFeeds' | 'households'>,
  caller: Account,
  householdId: HouseholdId,
  feedId: string,
): Promise<Result<void, NotMember | ErrorOf<'adults-only' | 'calendar-feed-not-found' | 'calendar-feed-not-yours'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  const feed = await deps.calendarFeeds.byId(householdId, feedId);
  if (!feed) return fail({ type: 'calendar-feed-not-found' });
  if (feed.kind === 'Device' && feed.ownerAccountId !== caller.id) return fail({ type: 'calendar-feed-not-yours' });
  if (!(await deps.calendarFeeds.remove(householdId, feedId))) return fail({ type: 'calendar-feed-not-found' });
  return ok(undefined);
}
