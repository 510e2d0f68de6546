import { CalendarFetchFailed, type CalendarFetcher, type OutboundAddressGuard } from '../../ports/calendar-fetcher.js';
import type { Clock } from '../../ports/clock.js';
import { createOutboundGuard, type HostLookup } from '../outbound/guard.js';
import { OutboundFetchFailed, outboundGet } from '../outbound/http-get.js';
import { atFirstUse } from '../first-use.js';
import { createFeedCache } from './feed-cache.js';
import type { ParsedFeed } from './ics-feed.js';

/** The iCalendar reader (ical.js, about a megabyte in memory), loaded at the first feed fetched, not at start. */
const icsReader = atFirstUse(async () => {
  const [{ parseFeed }, { expand }] = await Promise.all([import('./ics-feed.js'), import('./ics-expand.js')]);
  return { parseFeed, expand };
});

export interface CalendarFetcherOptions {
  clock: Clock;
  /** host:port pairs (e.g. "127.0.0.1:43123") that the guard lets through although they are loopback/private, and whose port need not be standard. For tests only; empty in production. */
  allowHosts: readonly string[];
  /** The whole fetch, redirects included, connect to last byte. */
  timeoutMs: number;
  /** Body cap; more → CalendarFetchFailed('too-large'). */
  maxBytes: number;
  /** How long a fetched feed (or its failure) is kept per URL. */
  cacheTtlMs: number;
  /** Redirects followed, each hop checked again; default 3. */
  maxRedirects?: number;
  /** Name resolution, for tests that play DNS rebinding; the system resolver by default. */
  lookup?: HostLookup;
}

export function createCalendarFetcher(o: CalendarFetcherOptions): { fetcher: CalendarFetcher; guard: OutboundAddressGuard } {
  const guard = createOutboundGuard({ allowHosts: o.allowHosts, lookup: o.lookup, dnsTimeoutMs: o.timeoutMs });
  const fetchOptions = {
    timeoutMs: o.timeoutMs,
    maxBytes: o.maxBytes,
    maxRedirects: o.maxRedirects ?? 3,
    accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1',
  };

  const load = async (url: string): Promise<{ feed: ParsedFeed; bytes: number }> => {
    let body: Buffer;
    try {
      body = await outboundGet(guard, url, fetchOptions);
    } catch (e) {
      throw e instanceof OutboundFetchFailed ? new CalendarFetchFailed(e.reason, e.detail) : e;
    }
    const { parseFeed } = await icsReader();
    try {
      return { feed: parseFeed(new TextDecoder('utf-8').decode(body)), bytes: body.length };
    } catch (e) {
      // Whatever ical.js throws on text it cannot read is the feed's fault, not ours.
      throw new CalendarFetchFailed('unparsable', e instanceof Error ? e.message : String(e));
    }
  };
  const cache = createFeedCache({
    clock: o.clock,
    ttlMs: o.cacheTtlMs,
    maxEntries: 500,
    // Parsed feeds take several times their text; 16 MiB of text keeps the cache well under the process's memory.
    maxWeight: 16 * 1024 * 1024,
    weigh: (v) => v.bytes,
    load,
  });

  return {
    guard: { check: (url) => guard.check(url) },
    fetcher: {
      async eventsBetween(url, from, to) {
        const { feed } = await cache.get(url);
        return (await icsReader()).expand(feed, from, to);
      },
    },
  };
}
