import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { expectStatus, httpSuite } from '../support/http-suite.js';

// Monday 4 May 2026, 11:00 in Oslo: the default window is 4-18 May.
const NOW = new Date('2026-05-04T09:00:00.000Z');

const ics = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//dinner tests//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260401T000000Z', ...lines, 'END:VEVENT'].join('\r\n');

/** A school calendar: a timed meeting (UTC), a weekly lesson (TZID), an all-day holiday and a party over midnight. */
const SCHOOL = ics(
  vevent('UID:meeting@test', 'DTSTART:20260505T160000Z', 'DTEND:20260505T173000Z', 'SUMMARY:Foreldremøte', 'LOCATION:Skolen'),
  vevent('UID:swim@test', 'DTSTART;TZID=Europe/Oslo:20260506T173000', 'DTEND;TZID=Europe/Oslo:20260506T183000', 'RRULE:FREQ=WEEKLY;COUNT=4', 'SUMMARY:Svømming'),
  vevent('UID:holiday@test', 'DTSTART;VALUE=DATE:20260517', 'DTEND;VALUE=DATE:20260518', 'SUMMARY:17. mai'),
  vevent('UID:party@test', 'DTSTART:20260508T180000Z', 'DTEND:20260509T003000Z', 'SUMMARY:Fest'),
);
const SCHOOL_ENTRIES = [
  { title: 'Foreldremøte', date: '2026-05-05', startTime: '18:00', endTime: '19:30', isAllDay: false, location: 'Skolen' },
  { title: 'Svømming', date: '2026-05-06', startTime: '17:30', endTime: '18:30', isAllDay: false, location: null },
  { title: 'Fest', date: '2026-05-08', startTime: '20:00', endTime: null, isAllDay: false, location: null },
  { title: 'Fest', date: '2026-05-09', startTime: null, endTime: '02:30', isAllDay: false, location: null },
  { title: 'Svømming', date: '2026-05-13', startTime: '17:30', endTime: '18:30', isAllDay: false, location: null },
  { title: '17. mai', date: '2026-05-17', startTime: null, endTime: null, isAllDay: true, location: null },
];

const deviceEvent = (date: string, over: Record<string, unknown> = {}) => ({ title: 'Fotball', date, startTime: '17:00', endTime: '18:30', isAllDay: false, location: null, ...over });

/** A calendar server on loopback: /school.ics answers the school calendar, /broken.ics 500. */
async function calendarServer(): Promise<{ server: Server; origin: string; host: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url?.startsWith('/school.ics')) {
      res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' });
      res.end(SCHOOL);
    } else {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('oops');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, hits };
}

let feeds: Awaited<ReturnType<typeof calendarServer>>;
httpSuite('calendar feeds', { now: NOW, env: async () => ({ OUTBOUND_ALLOW_HOSTS: (feeds = await calendarServer()).host }) }, (server) => {
  const { clock } = server;
  after(() => new Promise<void>((resolve) => feeds.server.close(() => resolve())));

  async function household() {
    const h = await server.household();
    return { ...h, feeds: `${h.base}/calendar-feeds`, events: `${h.base}/calendar-events`, device: `${h.base}/calendar-feeds/device` };
  }
  // Each household reads its own address, so that the fetcher's short cache never answers for another test.
  const schoolUrl = () => `${feeds.origin}/school.ics?h=${randomUUID()}`;
  const brokenUrl = () => `${feeds.origin}/broken.ics?h=${randomUUID()}`;

  describe('GET calendar-events', () => {
    it('answers every feed as its own slice on the household wall clock; an unreadable one carries feed_unreadable and hides no other', async () => {
      const h = await household();
      const junior = (await h.join('Junior')).client;
      const school = await h.owner.post(h.feeds, { name: 'Skole', url: schoolUrl() });
      expectStatus(school, 201);
      clock.advance(1000);
      const broken = await h.owner.post(h.feeds, { name: 'Jobb', url: brokenUrl() });
      expectStatus(broken, 201);
      clock.advance(1000);
      const phone = await junior.put(h.device, {
        deviceKey: 'junior-phone',
        name: 'Juniors telefon',
        events: [deviceEvent('2026-05-07', { title: 'Korps', startTime: '17:45', endTime: '19:00', location: 'Skolen' }), deviceEvent('2026-05-10', { isAllDay: true, startTime: null, endTime: null, title: 'Bursdag' })],
      });
      expectStatus(phone, 200);

      const res = await junior.get(h.events);
      expectStatus(res, 200);
      expect(res.json).to.deep.equal({
        from: '2026-05-04',
        to: '2026-05-18',
        feeds: [
          { feedId: school.json.id, feedName: 'Skole', events: SCHOOL_ENTRIES, error: null },
          { feedId: broken.json.id, feedName: 'Jobb', events: [], error: 'feed_unreadable' },
          {
            feedId: phone.json.id,
            feedName: 'Juniors telefon',
            events: [
              { title: 'Korps', date: '2026-05-07', startTime: '17:45', endTime: '19:00', isAllDay: false, location: 'Skolen' },
              { title: 'Bursdag', date: '2026-05-10', startTime: null, endTime: null, isAllDay: true, location: null },
            ],
            error: null,
          },
        ],
        busyEvenings: [
          { date: '2026-05-05', title: 'Foreldremøte', startTime: '18:00', endTime: '19:30' },
          { date: '2026-05-06', title: 'Svømming', startTime: '17:30', endTime: '18:30' },
          { date: '2026-05-07', title: 'Korps', startTime: '17:45', endTime: '19:00' },
          { date: '2026-05-13', title: 'Svømming', startTime: '17:30', endTime: '18:30' },
        ],
      });
      // A good read is recorded on its feed; the broken one was never read successfully.
      const list = (await h.owner.get(h.feeds)).json as { id: string; syncedAt: string | null; eventCount: number | null }[];
      expect(list.map((f) => [f.id, f.syncedAt, f.eventCount])).to.deep.equal([
        [school.json.id, clock.now().toISOString(), SCHOOL_ENTRIES.length],
        [broken.json.id, null, null],
        [phone.json.id, clock.now().toISOString(), 2],
      ]);
    });

    it('follows the household dinnerTime for busy evenings', async () => {
      const h = await household();
      expectStatus(await h.owner.post(h.feeds, { name: 'Skole', url: schoolUrl() }), 201);
      expectStatus(await h.owner.patch(h.base, { dinnerTime: '20:30' }), 200);
      const res = await h.owner.get(h.events);
      expect(res.json.busyEvenings).to.deep.equal([{ date: '2026-05-08', title: 'Fest', startTime: '20:00', endTime: null }]);
    });

    it('defaults, clamps and checks the window', async () => {
      const h = await household();
      expectStatus(await h.owner.post(h.feeds, { name: 'Skole', url: schoolUrl() }), 201);
      const window = async (query: string) => {
        const res = await h.owner.get(`${h.events}${query}`);
        expectStatus(res, 200);
        return [res.json.from, res.json.to, (res.json.feeds[0].events as { date: string }[]).map((e) => e.date)];
      };
      expect(await window('?from=2026-05-09')).to.deep.equal(['2026-05-09', '2026-05-23', ['2026-05-09', '2026-05-13', '2026-05-17', '2026-05-20']]);
      expect(await window('?from=2026-05-06&to=2026-05-06')).to.deep.equal(['2026-05-06', '2026-05-06', ['2026-05-06']]);
      expect(await window('?to=2026-05-06')).to.deep.equal(['2026-05-04', '2026-05-06', ['2026-05-05', '2026-05-06']]);
      expect(await window('?from=2026-05-01&to=2027-01-01')).to.deep.equal([
        '2026-05-01',
        '2026-06-01',
        ['2026-05-05', '2026-05-06', '2026-05-08', '2026-05-09', '2026-05-13', '2026-05-17', '2026-05-20', '2026-05-27'],
      ]);
      expectStatus(await h.owner.get(`${h.events}?from=2026-05-10&to=2026-05-09`), 400, 'calendar_window_invalid');
      expectStatus(await h.owner.get(`${h.events}?from=2026-02-30`), 400, 'validation_failed');
      expectStatus(await h.owner.get(`${h.events}?to=tomorrow`), 400, 'validation_failed');
    });

    it('is for members only', async () => {
      const h = await household();
      const { client: stranger } = await server.signedIn('Stranger');
      expectStatus(await stranger.get(h.events), 404, 'household_not_found');
      expectStatus(await stranger.get(h.feeds), 404, 'household_not_found');
    });
  });

  describe('POST calendar-feeds', () => {
    it('answers 201 with the whole address once; every list masks it to scheme and host', async () => {
      const h = await household();
      const adult = (await h.join('Adult')).client;
      const junior = (await h.join('Junior')).client;
      const url = `${feeds.origin}/school.ics?token=very-secret`;
      const res = await adult.post(h.feeds, { name: '  Skole  ', url });
      expectStatus(res, 201);
      expect(Object.keys(res.json).sort()).to.deep.equal(['createdAt', 'eventCount', 'id', 'isMine', 'isThisDevice', 'kind', 'name', 'syncedAt', 'url']);
      expect(res.json).to.deep.equal({ id: res.json.id, name: 'Skole', url, createdAt: NOW.toISOString(), kind: 'Ics', syncedAt: null, eventCount: null, isThisDevice: false, isMine: false });
      for (const c of [h.owner, adult, junior]) {
        const list = await c.get(h.feeds);
        expectStatus(list, 200);
        expect(list.json).to.deep.equal([{ ...res.json, url: 'http://127.0.0.1' }]);
        expect(list.text).to.not.include('very-secret');
      }
    });

    it('refuses loopback, private, link-local, non-standard-port and non-http addresses with 400 calendar_url_forbidden, storing nothing', async () => {
      const h = await household();
      for (const url of [
        'http://127.0.0.1/calendar.ics',
        'http://localhost/calendar.ics',
        'http://10.0.0.7/calendar.ics',
        'http://192.168.1.20/calendar.ics',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]/calendar.ics',
        'http://[fe80::1]/calendar.ics',
        `http://127.0.0.1:${Number(feeds.host.split(':')[1]) + 1}/calendar.ics`,
        'https://calendar.example.com:8443/calendar.ics',
        'ftp://calendar.example.com/calendar.ics',
        'file:///etc/passwd',
        'not an address',
      ]) {
        expectStatus(await h.owner.post(h.feeds, { name: 'X', url }), 400, 'calendar_url_forbidden');
      }
      expect((await h.owner.get(h.feeds)).json).to.deep.equal([]);
      expect(feeds.hits.filter((u) => u.includes('calendar.ics'))).to.deep.equal([]);
    });

    it('refuses special-use names (localhost and under it, .local, .internal, .home.arpa, .invalid, .test) in any case and with a trailing dot, storing nothing', async () => {
      const h = await household();
      for (const url of [
        'http://localhost./x.ics',
        'http://LOCALHOST/x.ics',
        'http://foo.localhost/x.ics',
        'https://Calendar.LocalHost./x.ics',
        'http://nas.local/x.ics',
        'http://nas.local./x.ics',
        'http://family.internal/x.ics',
        'http://server.home.arpa/x.ics',
        'http://calendar.invalid/x.ics',
        'https://calendar.TEST/x.ics',
      ]) {
        expectStatus(await h.owner.post(h.feeds, { name: 'X', url }), 400, 'calendar_url_forbidden');
      }
      expect((await h.owner.get(h.feeds)).json).to.deep.equal([]);
    });

    it('checks name and url lengths', async () => {
      const h = await household();
      expectStatus(await h.owner.post(h.feeds, { name: '   ', url: schoolUrl() }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.feeds, { name: 'x'.repeat(81), url: schoolUrl() }), 400, 'value_too_long');
      expectStatus(await h.owner.post(h.feeds, { name: 'Skole', url: `https://calendar.example.com/${'a'.repeat(2048)}` }), 400, 'value_too_long');
      expectStatus(await h.owner.post(h.feeds, { name: 'Skole' }), 400, 'validation_failed');
      expectStatus(await h.owner.post(h.feeds, { name: 'x'.repeat(80), url: schoolUrl() }), 201);
    });

    it('is for adults: a Junior gets 403 adults_only, and may still read', async () => {
      const h = await household();
      const junior = (await h.join('Junior')).client;
      expectStatus(await junior.post(h.feeds, { name: 'Min', url: schoolUrl() }), 403, 'adults_only');
      const made = await h.owner.post(h.feeds, { name: 'Skole', url: schoolUrl() });
      expectStatus(await junior.delete(`${h.feeds}/${made.json.id}`), 403, 'adults_only');
      expectStatus(await junior.get(h.feeds), 200);
      const events = await junior.get(h.events);
      expectStatus(events, 200);
      expect(events.json.feeds[0].events).to.deep.equal(SCHOOL_ENTRIES);
    });
  });

  describe('PUT calendar-feeds/device', () => {
    it('creates the feed on the first sync and replaces it whole after, name too; a retry leaves the same feed', async () => {
      const h = await household();
      const first = await h.owner.put(h.device, { deviceKey: 'phone-1', name: 'iPhone', events: [deviceEvent('2026-05-05'), deviceEvent('2026-05-06', { title: 'Tannlege' })] });
      expectStatus(first, 200);
      expect(first.json).to.deep.equal({ id: first.json.id, name: 'iPhone', url: '', createdAt: NOW.toISOString(), kind: 'Device', syncedAt: NOW.toISOString(), eventCount: 2, isThisDevice: true, isMine: true });
      clock.advance(60_000);
      const body = { deviceKey: 'phone-1', name: 'Min iPhone', events: [deviceEvent('2026-05-07', { title: 'Korps' })] };
      const second = await h.owner.put(h.device, body);
      expect(second.json).to.deep.equal({ ...first.json, name: 'Min iPhone', syncedAt: clock.now().toISOString(), eventCount: 1 });
      const again = await h.owner.put(h.device, body);
      expect(again.json).to.deep.equal(second.json);
      expect((await h.owner.get(h.feeds)).json).to.have.length(1);
      const slice = (await h.owner.get(h.events)).json.feeds[0];
      expect(slice.events).to.deep.equal([deviceEvent('2026-05-07', { title: 'Korps' })]);
    });

    it('keeps only events from yesterday to today + 31, at most 500 (the earliest), and refuses more than 2000 sent', async () => {
      const h = await household();
      const trimmed = await h.owner.put(h.device, {
        deviceKey: 'k',
        name: 'Pixel',
        events: [deviceEvent('2026-05-02'), deviceEvent('2026-05-03', { title: 'i går' }), deviceEvent('2026-06-04', { title: 'siste' }), deviceEvent('2026-06-05')],
      });
      expect(trimmed.json.eventCount).to.equal(2);
      const window = await h.owner.get(`${h.events}?from=2026-05-01&to=2026-06-01`);
      expect((window.json.feeds[0].events as { title: string }[]).map((e) => e.title)).to.deep.equal(['i går']);
      const late = await h.owner.get(`${h.events}?from=2026-06-01&to=2026-06-30`);
      expect((late.json.feeds[0].events as { title: string }[]).map((e) => e.title)).to.deep.equal(['siste']);

      const many = Array.from({ length: 600 }, (_, i) => deviceEvent(i % 2 === 0 ? '2026-05-20' : '2026-05-05', { title: `e${String(i).padStart(3, '0')}` }));
      const capped = await h.owner.put(h.device, { deviceKey: 'k', name: 'Pixel', events: many });
      expectStatus(capped, 200);
      expect(capped.json.eventCount).to.equal(500);
      const kept = (await h.owner.get(`${h.events}?from=2026-05-01&to=2026-05-31`)).json.feeds[0].events as { date: string }[];
      expect(kept.filter((e) => e.date === '2026-05-05')).to.have.length(300);
      expect(kept.filter((e) => e.date === '2026-05-20')).to.have.length(200);

      const tooMany = Array.from({ length: 2001 }, () => deviceEvent('2026-05-05'));
      expectStatus(await h.owner.put(h.device, { deviceKey: 'k', name: 'Pixel', events: tooMany }), 400, 'value_too_long');
      expect((await h.owner.get(h.feeds)).json[0].eventCount).to.equal(500);
    });

    it('checks each event', async () => {
      const h = await household();
      const put = (event: Record<string, unknown>) => h.owner.put(h.device, { deviceKey: 'k', name: 'Pixel', events: [event] });
      expectStatus(await put(deviceEvent('2026-02-30')), 400, 'validation_failed');
      expectStatus(await put(deviceEvent('2026-05-05', { startTime: '24:00' })), 400, 'validation_failed');
      expectStatus(await put(deviceEvent('2026-05-05', { endTime: '7pm' })), 400, 'validation_failed');
      expectStatus(await put(deviceEvent('2026-05-05', { title: 'x'.repeat(201) })), 400, 'value_too_long');
      expectStatus(await put(deviceEvent('2026-05-05', { location: 'x'.repeat(201) })), 400, 'value_too_long');
      expectStatus(await put(deviceEvent('2026-05-05', { isAllDay: null })), 400, 'validation_failed');
      expectStatus(await h.owner.put(h.device, { deviceKey: '', name: 'Pixel', events: [] }), 400, 'validation_failed');
      expectStatus(await h.owner.put(h.device, { deviceKey: 'k', name: '', events: [] }), 400, 'validation_failed');
      expect((await h.owner.get(h.feeds)).json).to.deep.equal([]);
    });

    it('marks isThisDevice on the caller\'s feed with that key and isMine on every feed of the caller', async () => {
      const h = await household();
      const adult = (await h.join('Adult')).client;
      const junior = (await h.join('Junior')).client;
      expectStatus(await h.owner.put(h.device, { deviceKey: 'same', name: 'Owner phone', events: [] }), 200);
      clock.advance(1000);
      expectStatus(await h.owner.put(h.device, { deviceKey: 'pad', name: 'Owner pad', events: [] }), 200);
      clock.advance(1000);
      expectStatus(await junior.put(h.device, { deviceKey: 'same', name: 'Junior phone', events: [] }), 200);
      const flags = async (c: typeof adult, query = '') => ((await c.get(`${h.feeds}${query}`)).json as { name: string; isThisDevice: boolean; isMine: boolean; url: string }[]).map((f) => [f.name, f.isThisDevice, f.isMine, f.url]);
      expect(await flags(h.owner, '?deviceKey=same')).to.deep.equal([
        ['Owner phone', true, true, ''],
        ['Owner pad', false, true, ''],
        ['Junior phone', false, false, ''],
      ]);
      expect(await flags(junior, '?deviceKey=same')).to.deep.equal([
        ['Owner phone', false, false, ''],
        ['Owner pad', false, false, ''],
        ['Junior phone', true, true, ''],
      ]);
      expect(await flags(adult, '?deviceKey=same')).to.deep.equal([
        ['Owner phone', false, false, ''],
        ['Owner pad', false, false, ''],
        ['Junior phone', false, false, ''],
      ]);
      expect(await flags(h.owner)).to.deep.equal([
        ['Owner phone', false, true, ''],
        ['Owner pad', false, true, ''],
        ['Junior phone', false, false, ''],
      ]);
    });
  });

  describe('DELETE', () => {
    it('calendar-feeds/{feedId}: any adult removes an ICS feed; a device feed only its owner (403 calendar_feed_not_yours); unknown or foreign ids 404', async () => {
      const h = await household();
      const other = await household();
      const adult = (await h.join('Adult')).client;
      const school = (await h.owner.post(h.feeds, { name: 'Skole', url: schoolUrl() })).json;
      const ownerPhone = (await h.owner.put(h.device, { deviceKey: 'k', name: 'Owner phone', events: [deviceEvent('2026-05-05')] })).json;
      const foreign = (await other.owner.post(other.feeds, { name: 'Andre', url: schoolUrl() })).json;
      expectStatus(await adult.delete(`${h.feeds}/${ownerPhone.id}`), 403, 'calendar_feed_not_yours');
      expectStatus(await h.owner.delete(`${h.feeds}/${foreign.id}`), 404, 'calendar_feed_not_found');
      expectStatus(await h.owner.delete(`${h.feeds}/${randomUUID()}`), 404, 'calendar_feed_not_found');
      expectStatus(await adult.delete(`${h.feeds}/${school.id}`), 204);
      expectStatus(await h.owner.delete(`${h.feeds}/${ownerPhone.id}`), 204);
      expectStatus(await h.owner.delete(`${h.feeds}/${ownerPhone.id}`), 404, 'calendar_feed_not_found');
      expect((await h.owner.get(h.feeds)).json).to.deep.equal([]);
      expect((await other.owner.get(other.feeds)).json.map((f: { id: string }) => f.id)).to.deep.equal([foreign.id]);
    });

    it('calendar-feeds/device/{deviceKey}: only the caller\'s own; another member\'s key is 404', async () => {
      const h = await household();
      const junior = (await h.join('Junior')).client;
      expectStatus(await junior.put(h.device, { deviceKey: 'junior phone/1', name: 'Junior', events: [deviceEvent('2026-05-05')] }), 200);
      const path = `${h.device}/${encodeURIComponent('junior phone/1')}`;
      expectStatus(await h.owner.delete(path), 404, 'calendar_feed_not_found');
      expect((await h.owner.get(h.feeds)).json).to.have.length(1);
      expectStatus(await junior.delete(path), 204);
      expectStatus(await junior.delete(path), 404, 'calendar_feed_not_found');
      expect((await h.owner.get(h.feeds)).json).to.deep.equal([]);
      expect((await h.owner.get(h.events)).json.feeds).to.deep.equal([]);
    });
  });
});
