import { CalendarFetchFailed, type CalendarFetcher, type FeedEvent, type OutboundAddressGuard } from '../../ports/calendar-fetcher.js';

/**
 * ICS feeds served from memory, for domain tests and the in-memory composition root: `serve` puts occurrences
 * at an address, `fail` makes an address unreadable; an address nobody served fails as unresolvable. The guard
 * checks the form of an address and refuses IP literals of loopback, private, link-local, unique-local and
 * unspecified ranges, `localhost`, and names `resolvesPrivately` lists (standing in for DNS).
 */
export interface MemoryCalendar {
  readonly fetcher: CalendarFetcher;
  readonly guard: OutboundAddressGuard;
  serve(url: string, events: readonly FeedEvent[]): void;
  fail(url: string, reason?: CalendarFetchFailed['reason']): void;
  resolvesPrivately(host: string): void;
  /** Every address fetched, in order. */
  readonly fetched: string[];
}

const PRIVATE_V4 = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^0\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./];
const V4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function forbiddenHost(host: string, privateNames: ReadonlySet<string>): string | null {
  const h = host.toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback name';
  if (privateNames.has(h)) return 'name resolves to a private address';
  if (V4.test(h)) return PRIVATE_V4.some((r) => r.test(h)) ? 'private or loopback IPv4 address' : null;
  if (h.startsWith('[')) {
    const v6 = h.slice(1, -1);
    if (v6 === '::1' || v6 === '::' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || v6.startsWith('::ffff:')) return 'private or loopback IPv6 address';
  }
  return null;
}

export function memoryCalendar(): MemoryCalendar {
  const served = new Map<string, readonly FeedEvent[] | CalendarFetchFailed['reason']>();
  const privateNames = new Set<string>();
  const fetched: string[] = [];
  const overlaps = (e: FeedEvent, from: Date, to: Date) =>
    e.isAllDay
      ? e.startDate < to.toISOString().slice(0, 10) && (e.endDate > e.startDate ? e.endDate : e.startDate) >= from.toISOString().slice(0, 10)
      : e.start.getTime() < to.getTime() && Math.max(e.end.getTime(), e.start.getTime() + 1) > from.getTime();
  return {
    fetched,
    fetcher: {
      async eventsBetween(url, from, to) {
        fetched.push(url);
        const found = served.get(url);
        if (found === undefined) throw new CalendarFetchFailed('unresolvable', url);
        if (typeof found === 'string') throw new CalendarFetchFailed(found, url);
        return found.filter((e) => overlaps(e, from, to)).map((e) => structuredClone(e));
      },
    },
    guard: {
      async check(url) {
        let u: URL;
        try {
          u = new URL(url);
        } catch {
          return { ok: false, reason: 'not an absolute URL' };
        }
        if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, reason: 'scheme must be http or https' };
        if (u.port !== '') return { ok: false, reason: 'only the standard port of the scheme' };
        const forbidden = forbiddenHost(u.hostname, privateNames);
        return forbidden ? { ok: false, reason: forbidden } : { ok: true };
      },
    },
    serve(url, events) {
      served.set(url, structuredClone([...events]));
    },
    fail(url, reason = 'http-status') {
      served.set(url, reason);
    },
    resolvesPrivately(host) {
      privateNames.add(host.toLowerCase());
    },
  };
}
