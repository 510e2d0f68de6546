import { expect } from 'chai';
import { createCalendarFetcher, type CalendarFetcherOptions } from '../../adapters/calendar/index.js';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { CalendarFetchFailed, type FeedEvent } from '../../ports/calendar-fetcher.js';
import { rebindingLookup } from '../support/rebinding.js';
import { ics, redirectTo, serve, startFeedServer } from './feed-server.js';

const TTL = 60_000;

// Europe/Oslo as Outlook writes it: under a Windows name that Intl does not know, so only the VTIMEZONE can place it.
const windowsOslo = [
  'BEGIN:VTIMEZONE', 'TZID:W. Europe Standard Time',
  'BEGIN:STANDARD', 'DTSTART:16010101T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10', 'END:STANDARD',
  'BEGIN:DAYLIGHT', 'DTSTART:16010101T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3', 'END:DAYLIGHT',
  'END:VTIMEZONE',
];

const feeds = {
  '/weekly.ics': ics(
    'BEGIN:VEVENT', 'UID:club@test', 'SUMMARY:Dinner club', "LOCATION:Kari's",
    'DTSTART;TZID=Europe/Oslo:20250106T180000', 'DTEND;TZID=Europe/Oslo:20250106T193000',
    'RRULE:FREQ=WEEKLY;BYDAY=MO', 'EXDATE;TZID=Europe/Oslo:20250120T180000', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:club@test', 'SUMMARY:Dinner club (moved)', 'RECURRENCE-ID;TZID=Europe/Oslo:20250127T180000',
    'DTSTART;TZID=Europe/Oslo:20250128T170000', 'DTEND;TZID=Europe/Oslo:20250128T183000', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:club@test', 'SUMMARY:Dinner club (early)', 'RECURRENCE-ID;TZID=Europe/Oslo:20250210T180000',
    'DTSTART;TZID=Europe/Oslo:20250207T120000', 'DTEND;TZID=Europe/Oslo:20250207T133000', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:other@test', 'SUMMARY:Unrelated', 'DTSTART:20240101T120000Z', 'END:VEVENT',
  ),
  '/all-day.ics': ics(
    'BEGIN:VEVENT', 'UID:a@test', 'SUMMARY:Winter holiday', 'DTSTART;VALUE=DATE:20250303', 'DTEND;VALUE=DATE:20250308', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:b@test', 'SUMMARY:Grandma visits', 'DTSTART;VALUE=DATE:20250305', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:c@test', "SUMMARY:Kari's birthday", 'DTSTART;VALUE=DATE:19800306', 'RRULE:FREQ=YEARLY', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:d@test', 'SUMMARY:Day before', 'DTSTART;VALUE=DATE:20250303', 'DTEND;VALUE=DATE:20250304', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:e@test', 'SUMMARY:Day after', 'DTSTART;VALUE=DATE:20250307', 'END:VEVENT',
  ),
  '/vtimezone.ics': ics(
    ...windowsOslo,
    'BEGIN:VEVENT', 'UID:w@test', 'SUMMARY:Sunday roast', 'DTSTART;TZID=W. Europe Standard Time:20250323T180000',
    'DTEND;TZID=W. Europe Standard Time:20250323T190000', 'RRULE:FREQ=WEEKLY;COUNT=3', 'END:VEVENT',
  ),
  '/iana.ics': ics(
    'BEGIN:VEVENT', 'UID:i@test', 'SUMMARY:Sunday roast', 'DTSTART;TZID=Europe/Oslo:20251019T180000',
    'DTEND;TZID=Europe/Oslo:20251019T190000', 'RRULE:FREQ=WEEKLY;UNTIL=20251103T000000Z', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:m@test', 'SUMMARY:Old exporter', 'DTSTART;TZID=/mozilla.org/20050126_1/Europe/Oslo:20251022T120000', 'END:VEVENT',
  ),
  '/utc-and-floating.ics': ics(
    'BEGIN:VEVENT', 'UID:z@test', 'SUMMARY:UTC', 'DTSTART:20250305T170000Z', 'DTEND:20250305T180000Z', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:f@test', 'SUMMARY:Floating', 'DTSTART:20250305T180000', 'DTEND:20250305T190000', 'END:VEVENT',
  ),
  '/long-running.ics': ics(
    'BEGIN:VEVENT', 'UID:s@test', 'SUMMARY:Standup', 'DTSTART:19900101T090000Z', 'DURATION:PT15M', 'RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:b@test', 'SUMMARY:Bin day', 'DTSTART:20010102T070000Z', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:k@test', 'SUMMARY:Book club', 'DTSTART:20000103T190000Z', 'DURATION:PT2H', 'RRULE:FREQ=MONTHLY;BYDAY=1MO', 'END:VEVENT',
  ),
  '/hostile.ics': ics(
    'BEGIN:VTIMEZONE', 'TZID:Evil/Zone', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0100',
    'RRULE:FREQ=SECONDLY', 'END:STANDARD', 'END:VTIMEZONE',
    'BEGIN:VEVENT', 'UID:x@test', 'SUMMARY:Every second', 'DTSTART;TZID=Evil/Zone:20250301T000000', 'DURATION:PT1S', 'RRULE:FREQ=SECONDLY', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:y@test', 'SUMMARY:Every minute since 1970', 'DTSTART:19700101T000000Z', 'RRULE:FREQ=MINUTELY', 'END:VEVENT',
  ),
  '/garbage.ics': '<!doctype html><html><body>Sign in to see this calendar</body></html>',
};

const timed = (title: string, start: string, end: string, location: string | null = null): FeedEvent => ({
  title, location, isAllDay: false, start: new Date(start), end: new Date(end),
});
const allDay = (title: string, startDate: string, endDate: string): FeedEvent => ({ title, location: null, isAllDay: true, startDate, endDate });

async function failure(p: Promise<unknown>): Promise<CalendarFetchFailed> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(CalendarFetchFailed);
    return e as CalendarFetchFailed;
  }
  throw new Error('expected CalendarFetchFailed');
}

describe('calendar fetcher (ICS over HTTP)', () => {
  let server: Awaited<ReturnType<typeof startFeedServer>>;
  let other: Awaited<ReturnType<typeof startFeedServer>>;
  let closedPort: number;

  before(async () => {
    other = await startFeedServer({ '/feed.ics': serve(feeds['/weekly.ics']) });
    const closed = await startFeedServer({});
    closedPort = closed.port;
    await closed.close();
    server = await startFeedServer({
      ...Object.fromEntries(Object.entries(feeds).map(([path, body]) => [path, serve(body)])),
      '/big.ics': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/calendar' });
        for (let i = 0; i < 10; i++) res.write('X'.repeat(1000));
        res.end();
      },
      '/big-declared.ics': (_req, res) => res.writeHead(200, { 'content-length': '10000' }).end('X'.repeat(10_000)),
      // Answers the head and a first chunk, then nothing: the whole-fetch timeout must still end it.
      '/slow.ics': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/calendar' });
        res.write('BEGIN:VCALENDAR\r\n');
      },
      '/broken.ics': (_req, res) => res.writeHead(500).end('oops'),
      '/moved.ics': redirectTo('/weekly.ics', 301),
      '/loop.ics': redirectTo('/loop.ics'),
      '/to-other-loopback.ics': (_req, res) => res.writeHead(302, { location: `http://127.0.0.2:${server.port}/weekly.ics` }).end(),
      '/to-private.ics': redirectTo('http://10.0.0.1/feed.ics'),
      '/to-metadata.ics': redirectTo('http://169.254.169.254/latest/meta-data/'),
      '/to-localhost.ics': redirectTo('http://localhost/feed.ics'),
      '/to-special-use.ics': redirectTo('http://calendar.LOCALHOST./feed.ics'),
    });
  });

  after(async () => {
    await server.close();
    await other.close();
  });

  const make = (over: Partial<CalendarFetcherOptions> = {}) => {
    const clock = fixedClock(new Date('2025-03-01T12:00:00Z'));
    const made = createCalendarFetcher({ clock, allowHosts: [server.host], timeoutMs: 2000, maxBytes: 64 * 1024, cacheTtlMs: TTL, ...over });
    return { ...made, clock };
  };

  describe('reading feeds', () => {
    /** The events a fresh fetcher reads from one of the feeds above between two instants. */
    const read = (path: keyof typeof feeds, from: string, to: string) => make().fetcher.eventsBetween(server.url(path), new Date(from), new Date(to));

    it('expands a weekly RRULE, drops the EXDATE and shows overridden occurrences at their new times', async () => {
      expect(await read('/weekly.ics', '2025-01-10T00:00:00Z', '2025-02-08T00:00:00Z')).to.deep.equal([
        timed('Dinner club', '2025-01-13T17:00:00Z', '2025-01-13T18:30:00Z', "Kari's"),
        // An override replaces the occurrence whole (RFC 5545): it has no LOCATION of its own, so none.
        timed('Dinner club (moved)', '2025-01-28T16:00:00Z', '2025-01-28T17:30:00Z'),
        timed('Dinner club', '2025-02-03T17:00:00Z', '2025-02-03T18:30:00Z', "Kari's"),
        // Moved into the window from an occurrence after it.
        timed('Dinner club (early)', '2025-02-07T11:00:00Z', '2025-02-07T12:30:00Z'),
      ]);
    });

    it('reads all-day events as dates with an exclusive end, one day when DTEND is missing', async () => {
      expect(await read('/all-day.ics', '2025-03-04T00:00:00Z', '2025-03-07T00:00:00Z')).to.deep.equal([
        allDay('Winter holiday', '2025-03-03', '2025-03-08'),
        allDay('Grandma visits', '2025-03-05', '2025-03-06'),
        allDay("Kari's birthday", '2025-03-06', '2025-03-07'),
      ]);
    });

    it("resolves a TZID through the feed's VTIMEZONE across the spring DST change", async () => {
      const events = await read('/vtimezone.ics', '2025-03-20T00:00:00Z', '2025-04-10T00:00:00Z');
      expect(events.map((e) => !e.isAllDay && e.start.toISOString())).to.deep.equal([
        '2025-03-23T17:00:00.000Z',
        '2025-03-30T16:00:00.000Z',
        '2025-04-06T16:00:00.000Z',
      ]);
    });

    it('resolves an IANA TZID without VTIMEZONE (Europe/Oslo across the autumn DST change), vendor prefix or not', async () => {
      expect(await read('/iana.ics', '2025-10-15T00:00:00Z', '2025-11-05T00:00:00Z')).to.deep.equal([
        timed('Sunday roast', '2025-10-19T16:00:00Z', '2025-10-19T17:00:00Z'),
        timed('Old exporter', '2025-10-22T10:00:00Z', '2025-10-22T10:00:00Z'),
        timed('Sunday roast', '2025-10-26T17:00:00Z', '2025-10-26T18:00:00Z'),
        timed('Sunday roast', '2025-11-02T17:00:00Z', '2025-11-02T18:00:00Z'),
      ]);
    });

    it('reads UTC times as given and floating times as UTC', async () => {
      expect(await read('/utc-and-floating.ics', '2025-03-05T00:00:00Z', '2025-03-06T00:00:00Z')).to.deep.equal([
        timed('UTC', '2025-03-05T17:00:00Z', '2025-03-05T18:00:00Z'),
        timed('Floating', '2025-03-05T18:00:00Z', '2025-03-05T19:00:00Z'),
      ]);
    });

    it('finds the right occurrences of series that began decades before the window', async () => {
      const events = await read('/long-running.ics', '2025-03-01T00:00:00Z', '2025-03-31T00:00:00Z');
      const starts = (title: string) => events.flatMap((e) => (e.title === title && !e.isAllDay ? [e.start.toISOString().slice(0, 16)] : []));
      expect(starts('Standup')).to.have.length(20);
      expect(starts('Standup')[0]).to.equal('2025-03-03T09:00');
      expect(starts('Bin day')).to.deep.equal(['2025-03-11T07:00', '2025-03-25T07:00']);
      expect(starts('Book club')).to.deep.equal(['2025-03-03T19:00']);
    });

    it('survives a hostile feed: per-second rules and a VTIMEZONE that recurs every second are bounded', async () => {
      const { fetcher } = make();
      const started = Date.now();
      const events = await fetcher.eventsBetween(server.url('/hostile.ics'), new Date('2025-03-01T00:00:00Z'), new Date('2025-03-02T00:00:00Z'));
      expect(Date.now() - started).to.be.below(3000);
      expect(events.length).to.be.at.most(2000);
      // The unsafe zone is dropped, so its TZID is read as floating (UTC) time.
      expect(events[0]).to.deep.include({ title: 'Every second', start: new Date('2025-03-01T00:00:00Z') });
    });
  });

  describe('failures', () => {
    it('a body over the cap is too-large, streamed or declared', async () => {
      const { fetcher } = make({ maxBytes: 2000 });
      const window = [new Date('2025-03-01T00:00:00Z'), new Date('2025-03-02T00:00:00Z')] as const;
      expect((await failure(fetcher.eventsBetween(server.url('/big.ics'), ...window))).reason).to.equal('too-large');
      expect((await failure(fetcher.eventsBetween(server.url('/big-declared.ics'), ...window))).reason).to.equal('too-large');
    });

    it('a server that stalls is a timeout', async () => {
      const { fetcher } = make({ timeoutMs: 300 });
      const started = Date.now();
      const e = await failure(fetcher.eventsBetween(server.url('/slow.ics'), new Date('2025-03-01'), new Date('2025-03-02')));
      expect(e.reason).to.equal('timeout');
      expect(Date.now() - started).to.be.below(2000);
    });

    it('a non-2xx answer is http-status', async () => {
      const { fetcher } = make();
      expect((await failure(fetcher.eventsBetween(server.url('/nothing-here.ics'), new Date('2025-03-01'), new Date('2025-03-02')))).reason).to.equal('http-status');
      expect((await failure(fetcher.eventsBetween(server.url('/broken.ics'), new Date('2025-03-01'), new Date('2025-03-02')))).reason).to.equal('http-status');
    });

    it('text that is not iCalendar is unparsable', async () => {
      const { fetcher } = make();
      expect((await failure(fetcher.eventsBetween(server.url('/garbage.ics'), new Date('2025-03-01'), new Date('2025-03-02')))).reason).to.equal('unparsable');
    });

    it('a refused connection is network', async () => {
      const { fetcher } = make({ allowHosts: [server.host, `127.0.0.1:${closedPort}`] });
      const e = await failure(fetcher.eventsBetween(`http://127.0.0.1:${closedPort}/feed.ics`, new Date('2025-03-01'), new Date('2025-03-02')));
      expect(e.reason).to.equal('network');
    });

    it('follows a redirect on the allowed server, and gives up after maxRedirects', async () => {
      const { fetcher } = make();
      const events = await fetcher.eventsBetween(server.url('/moved.ics'), new Date('2025-01-10T00:00:00Z'), new Date('2025-01-14T00:00:00Z'));
      expect(events.map((e) => e.title)).to.deep.equal(['Dinner club']);
      const before = server.hits('/loop.ics');
      expect((await failure(fetcher.eventsBetween(server.url('/loop.ics'), new Date('2025-03-01'), new Date('2025-03-02')))).reason).to.equal('http-status');
      expect(server.hits('/loop.ics') - before).to.equal(4);
    });
  });

  describe('caching', () => {
    const window = [new Date('2025-01-10T00:00:00Z'), new Date('2025-02-08T00:00:00Z')] as const;

    it('keeps a fetched feed for the TTL on the clock, then fetches again', async () => {
      const { fetcher, clock } = make();
      const url = `${server.url('/weekly.ics')}?cache=ttl`;
      const before = server.hits('/weekly.ics');
      await fetcher.eventsBetween(url, ...window);
      clock.advance(TTL - 1);
      const again = await fetcher.eventsBetween(url, new Date('2025-01-12T00:00:00Z'), new Date('2025-01-14T00:00:00Z'));
      expect(again).to.have.length(1);
      expect(server.hits('/weekly.ics') - before).to.equal(1);
      clock.advance(2);
      await fetcher.eventsBetween(url, ...window);
      expect(server.hits('/weekly.ics') - before).to.equal(2);
    });

    it('shares one fetch among concurrent calls for the same URL', async () => {
      const { fetcher } = make();
      const before = server.hits('/weekly.ics');
      const all = await Promise.all([1, 2, 3].map(() => fetcher.eventsBetween(server.url('/weekly.ics'), ...window)));
      expect(all.map((e) => e.length)).to.deep.equal([4, 4, 4]);
      expect(server.hits('/weekly.ics') - before).to.equal(1);
    });

    it('keeps a failure for the TTL too, so a dead feed is not hammered', async () => {
      const { fetcher, clock } = make();
      const before = server.hits('/broken.ics');
      await failure(fetcher.eventsBetween(server.url('/broken.ics'), ...window));
      await failure(fetcher.eventsBetween(server.url('/broken.ics'), ...window));
      expect(server.hits('/broken.ics') - before).to.equal(1);
      clock.advance(TTL + 1);
      await failure(fetcher.eventsBetween(server.url('/broken.ics'), ...window));
      expect(server.hits('/broken.ics') - before).to.equal(2);
    });
  });

  describe('outbound address guard', () => {
    const window = [new Date('2025-03-01T00:00:00Z'), new Date('2025-03-02T00:00:00Z')] as const;

    // The guard's check runs first: were it to pass a private address, the test stops before any fetch sends traffic there.
    const refused = [
      ['another port on the allowed loopback address', () => `http://127.0.0.1:${other.port}/feed.ics`],
      ['localhost', () => 'http://localhost/feed.ics'],
      ['localhost on the allowed port', () => `http://localhost:${server.port}/weekly.ics`],
      ['IPv6 loopback', () => 'http://[::1]/feed.ics'],
      ['10.0.0.1', () => 'http://10.0.0.1/feed.ics'],
      ['192.168.1.1', () => 'http://192.168.1.1/feed.ics'],
      ['172.16.0.1', () => 'http://172.16.0.1/feed.ics'],
      ['100.64.0.1 (CGNAT)', () => 'http://100.64.0.1/feed.ics'],
      ['169.254.169.254 (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/'],
      ['unique-local fc00::1', () => 'http://[fc00::1]/feed.ics'],
      ['link-local fe80::1', () => 'http://[fe80::1]/feed.ics'],
      ['multicast 224.0.0.1', () => 'http://224.0.0.1/feed.ics'],
      ['broadcast 255.255.255.255', () => 'http://255.255.255.255/feed.ics'],
      ['IPv4-mapped loopback ::ffff:127.0.0.1', () => 'http://[::ffff:127.0.0.1]/feed.ics'],
      ['IPv4-mapped private ::ffff:10.0.0.1', () => 'http://[::ffff:10.0.0.1]/feed.ics'],
      ['0.0.0.0', () => 'http://0.0.0.0/feed.ics'],
      ['a decimal spelling of loopback', () => 'http://2130706433/feed.ics'],
      ['ftp://', () => 'ftp://example.com/feed.ics'],
      ['file://', () => 'file:///etc/passwd'],
      ['webcal:// (callers may rewrite it to https:// first)', () => 'webcal://example.com/feed.ics'],
      ['a non-standard port', () => 'http://example.com:8080/feed.ics'],
      ["https on http's port", () => 'https://example.com:80/feed.ics'],
    ] as const;

    for (const [name, url] of refused) {
      it(`refuses ${name}`, async () => {
        const { fetcher, guard } = make();
        const checked = await guard.check(url());
        expect(checked.ok).to.equal(false);
        const e = await failure(fetcher.eventsBetween(url(), ...window));
        expect(e.reason).to.equal('forbidden-address');
      });
    }

    it('never reached the other loopback server', () => {
      expect(other.totalHits()).to.equal(0);
    });

    for (const path of ['/to-other-loopback.ics', '/to-private.ics', '/to-metadata.ics', '/to-localhost.ics', '/to-special-use.ics']) {
      it(`refuses a redirect from the allowed server elsewhere (${path})`, async () => {
        const { fetcher } = make();
        const e = await failure(fetcher.eventsBetween(server.url(path), ...window));
        expect(e.reason).to.equal('forbidden-address');
        expect(server.hits(path)).to.equal(1);
      });
    }

    it('refuses at connect a name that resolved public when checked and private when fetched (DNS rebinding)', async () => {
      const { lookup, asked } = rebindingLookup();
      const { fetcher, guard } = make({ lookup });
      expect(await guard.check('http://rebind.example/feed.ics')).to.deep.equal({ ok: true });
      const e = await failure(fetcher.eventsBetween('http://rebind.example/feed.ics', ...window));
      expect(e.reason).to.equal('forbidden-address');
      expect(asked).to.deep.equal(['rebind.example', 'rebind.example']);
    });

    it('refuses a name with any forbidden answer among public ones, IPv4-mapped included', async () => {
      for (const bad of [{ address: '10.0.0.1', family: 4 }, { address: '::ffff:127.0.0.1', family: 6 }]) {
        const { fetcher, guard } = make({ lookup: async () => [{ address: '93.184.216.34', family: 4 }, bad] });
        expect(await guard.check('http://mixed.example/feed.ics')).to.deep.equal({ ok: false, reason: 'forbidden-address' });
        expect((await failure(fetcher.eventsBetween('http://mixed.example/feed.ics', ...window))).reason).to.equal('forbidden-address');
      }
    });

    it('connects through the injected resolver to a name listed in allowHosts', async () => {
      const { fetcher } = make({ allowHosts: [`feeds.test:${server.port}`], lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
      const events = await fetcher.eventsBetween(`http://feeds.test:${server.port}/weekly.ics`, new Date('2025-01-10T00:00:00Z'), new Date('2025-01-14T00:00:00Z'));
      expect(events.map((e) => e.title)).to.deep.equal(['Dinner club']);
    });

    it('passes a name that does not resolve, whose fetch is then unresolvable', async () => {
      const { fetcher, guard } = make({ lookup: async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })) });
      expect(await guard.check('http://no-such-host.example/feed.ics')).to.deep.equal({ ok: true });
      expect((await failure(fetcher.eventsBetween('http://no-such-host.example/feed.ics', ...window))).reason).to.equal('unresolvable');
    });

    it('refuses special-use names whatever their case and trailing dots, without asking DNS, on every hop', async () => {
      const asked: string[] = [];
      const { fetcher, guard } = make({ lookup: async (name) => (asked.push(name), [{ address: '93.184.216.34', family: 4 }]) });
      for (const url of [
        'http://localhost./feed.ics',
        'http://LOCALHOST/feed.ics',
        'http://LocalHost../feed.ics',
        'http://foo.localhost/feed.ics',
        'https://a.b.Localhost./feed.ics',
        'http://printer.local/feed.ics',
        'http://nas.internal/feed.ics',
        'http://router.home.arpa/feed.ics',
        'http://HOME.ARPA./feed.ics',
        'http://calendar.invalid/feed.ics',
        'https://calendar.test/feed.ics',
        'http://ｌｏｃａｌｈｏｓｔ/feed.ics',
      ]) {
        expect(await guard.check(url), url).to.deep.equal({ ok: false, reason: 'forbidden-address' });
        expect((await failure(fetcher.eventsBetween(url, ...window))).reason, url).to.equal('forbidden-address');
      }
      expect(asked).to.deep.equal([]);
      // Names that merely contain one of them are ordinary names.
      for (const url of ['https://local.example.com/feed.ics', 'https://localhost.example.org/feed.ics', 'https://test.no/feed.ics', 'https://mytest/feed.ics', 'https://internal-calendar.example/feed.ics']) {
        expect(await guard.check(url), url).to.deep.equal({ ok: true });
      }
      expect(asked).to.have.length(5);
    });

    it('passes a public address literal and a well-formed https URL without touching the network', async () => {
      const { guard } = make({ lookup: async () => [{ address: '93.184.216.34', family: 4 }] });
      expect(await guard.check('https://calendar.example.com/feed.ics')).to.deep.equal({ ok: true });
      expect(await guard.check('http://93.184.216.34/feed.ics')).to.deep.equal({ ok: true });
      expect(await guard.check('https://[2606:4700::1111]/feed.ics')).to.deep.equal({ ok: true });
      expect(await guard.check('not a url')).to.deep.equal({ ok: false, reason: 'invalid-url' });
    });
  });
});
