/**
 * One occurrence read from an ICS feed. Recurring events arrive expanded into their occurrences. A timed
 * occurrence carries instants; an all-day one carries calendar dates (endDate exclusive, as DTEND is in RFC 5545).
 */
export type FeedEvent =
  | { readonly title: string; readonly location: string | null; readonly isAllDay: false; readonly start: Date; readonly end: Date }
  | { readonly title: string; readonly location: string | null; readonly isAllDay: true; readonly startDate: string; readonly endDate: string };

/** Why a feed could not be read. Callers answer one fixed error text whatever the reason; the reason is for logs. */
export class CalendarFetchFailed extends Error {
  constructor(
    readonly reason: 'forbidden-address' | 'unresolvable' | 'timeout' | 'too-large' | 'http-status' | 'unparsable' | 'network',
    detail?: string,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'CalendarFetchFailed';
  }
}

/**
 * Reads ICS feeds from outside. Every fetch goes through the outbound address guard, checked on the address the
 * socket connects to (redirects and DNS rebinding included), with a timeout and a size cap; a fetched feed may be
 * kept for a short while, so that a page of reads does not fetch every feed again.
 */
export interface CalendarFetcher {
  /**
   * The occurrences of the feed at `url` overlapping [from, to): RRULE/RDATE expanded, EXDATE and overridden
   * occurrences (RECURRENCE-ID) applied, TZID times resolved to instants. Throws CalendarFetchFailed.
   * All-day occurrences are matched as UTC days, so one day at either edge of the window may come along: pick them by
   * date in the household's zone. Floating times (no TZID) are read as UTC. Cancelled occurrences are left out.
   */
  eventsBetween(url: string, from: Date, to: Date): Promise<FeedEvent[]>;
}

/**
 * The form check of an outbound address, shared by every outbound fetch: http or https, the scheme's standard
 * port, and a host that is neither a forbidden IP literal (loopback, private, link-local, unique-local,
 * multicast, unspecified, IPv4-mapped, ...) nor a name resolving to one. A name that does not resolve passes.
 */
export interface OutboundAddressGuard {
  check(url: string): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: string }>;
}
