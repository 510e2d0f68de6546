import { expect } from 'chai';
import { syncDeviceCalendar } from '../../core/calendar/device-feeds.js';
import { busyEvenings, dayEntries, touchesDinnerHour } from '../../core/calendar/day-entries.js';
import { createCalendarFeed, listCalendarFeeds } from '../../core/calendar/feeds.js';
import { FEED_UNREADABLE, type CalendarEvent } from '../../core/calendar/types.js';
import { upcomingCalendarEvents, windowOf } from '../../core/calendar/upcoming.js';
import { instantAt, instantOfWallTime, wallClockAt } from '../../core/calendar/wall-clock.js';
import { updateHousehold } from '../../core/households/households.js';
import type { FeedEvent } from '../../ports/calendar-fetcher.js';
import { calendarSetup, error, ev, value } from './calendar-support.js';

const timed = (title: string, start: string, end: string, location: string | null = null): FeedEvent => ({
  title,
  location,
  isAllDay: false,
  start: new Date(start),
  end: new Date(end),
});
const allDay = (title: string, startDate: string, endDate: string): FeedEvent => ({ title, location: null, isAllDay: true, startDate, endDate });
const entry = (date: string, title: string, startTime: string | null, endTime: string | null, over: Partial<CalendarEvent> = {}): CalendarEvent => ({
  title,
  date,
  startTime,
  endTime,
  isAllDay: false,
  location: null,
  ...over,
});

describe('calendar events (domain)', () => {
  describe('the window', () => {
    it('from defaults to today in the household zone, to to from + 14; both included', () => {
      expect(value(windowOf('2026-05-04', { from: null, to: null }))).to.deep.equal({ from: '2026-05-04', to: '2026-05-18' });
      expect(value(windowOf('2026-05-04', { from: '2026-06-01', to: null }))).to.deep.equal({ from: '2026-06-01', to: '2026-06-15' });
      expect(value(windowOf('2026-05-04', { from: null, to: '2026-05-04' }))).to.deep.equal({ from: '2026-05-04', to: '2026-05-04' });
    });

    it('moves a to beyond from + 31 days back to it, and refuses a to before from', () => {
      expect(value(windowOf('2026-05-04', { from: '2026-05-01', to: '2026-06-01' }))).to.deep.equal({ from: '2026-05-01', to: '2026-06-01' });
      expect(value(windowOf('2026-05-04', { from: '2026-05-01', to: '2026-12-31' }))).to.deep.equal({ from: '2026-05-01', to: '2026-06-01' });
      expect(error(windowOf('2026-05-04', { from: '2026-05-02', to: '2026-05-01' }))).to.equal('calendar-window-invalid');
      expect(error(windowOf('2026-05-04', { from: null, to: '2026-05-03' }))).to.equal('calendar-window-invalid');
    });
  });

  describe('wall clock', () => {
    it('turns instants into Oslo wall time across both DST changes, and back', () => {
      expect(wallClockAt('Europe/Oslo', new Date('2026-03-29T00:59:00Z'))).to.deep.equal({ date: '2026-03-29', time: '01:59' });
      expect(wallClockAt('Europe/Oslo', new Date('2026-03-29T01:00:00Z'))).to.deep.equal({ date: '2026-03-29', time: '03:00' });
      expect(instantAt('Europe/Oslo', '2026-03-29', '00:00').toISOString()).to.equal('2026-03-28T23:00:00.000Z');
      expect(instantAt('Europe/Oslo', '2026-03-30', '00:00').toISOString()).to.equal('2026-03-29T22:00:00.000Z');
      expect(instantAt('Europe/Oslo', '2026-10-25', '02:30').toISOString()).to.equal('2026-10-25T00:30:00.000Z');
      expect(instantAt('Europe/Oslo', '2026-03-29', '02:30').toISOString()).to.equal('2026-03-29T01:30:00.000Z');
      expect(instantAt('Pacific/Kiritimati', '2026-05-05', '00:00').toISOString()).to.equal('2026-05-04T10:00:00.000Z');
    });

    it('keeps an offset that is not whole minutes (Monrovia until 1972: -00:44:30), as iCalendar times need', () => {
      expect(instantAt('Africa/Monrovia', '1960-01-01', '12:00').toISOString()).to.equal('1960-01-01T12:44:30.000Z');
      expect(instantOfWallTime('Africa/Monrovia', Date.UTC(1960, 0, 1, 12, 0, 15))).to.equal(Date.UTC(1960, 0, 1, 12, 44, 45));
    });
  });

  describe('entries of a day', () => {
    const zone = 'Europe/Oslo';
    it('a timed occurrence lands on its wall-clock date and times', () => {
      expect(dayEntries(timed('Foreldremøte', '2026-05-05T16:00:00Z', '2026-05-05T17:30:00Z', 'Skolen'), zone, '2026-05-01', '2026-05-31')).to.deep.equal([
        entry('2026-05-05', 'Foreldremøte', '18:00', '19:30', { location: 'Skolen' }),
      ]);
    });

    it('a timed occurrence over midnight gives one entry per day: start time on the first, end time on the last', () => {
      const party = timed('Fest', '2026-05-05T18:00:00Z', '2026-05-06T00:30:00Z');
      expect(dayEntries(party, zone, '2026-05-01', '2026-05-31')).to.deep.equal([entry('2026-05-05', 'Fest', '20:00', null), entry('2026-05-06', 'Fest', null, '02:30')]);
      // Clipped to the window.
      expect(dayEntries(party, zone, '2026-05-06', '2026-05-31')).to.deep.equal([entry('2026-05-06', 'Fest', null, '02:30')]);
      const trip = timed('Tur', '2026-05-05T06:00:00Z', '2026-05-07T14:00:00Z');
      expect(dayEntries(trip, zone, '2026-05-01', '2026-05-31')).to.deep.equal([
        entry('2026-05-05', 'Tur', '08:00', null),
        entry('2026-05-06', 'Tur', null, null),
        entry('2026-05-07', 'Tur', null, '16:00'),
      ]);
    });

    it('an end at exactly midnight does not touch the next day', () => {
      expect(dayEntries(timed('Kveld', '2026-05-05T18:00:00Z', '2026-05-05T22:00:00Z'), zone, '2026-05-01', '2026-05-31')).to.deep.equal([entry('2026-05-05', 'Kveld', '20:00', null)]);
    });

    it('an all-day occurrence gives one all-day entry per date up to its exclusive end', () => {
      const all = (date: string) => entry(date, 'Ferie', null, null, { isAllDay: true });
      expect(dayEntries(allDay('Ferie', '2026-05-05', '2026-05-08'), zone, '2026-05-01', '2026-05-31')).to.deep.equal([all('2026-05-05'), all('2026-05-06'), all('2026-05-07')]);
      expect(dayEntries(allDay('Ferie', '2026-05-05', '2026-05-05'), zone, '2026-05-01', '2026-05-31')).to.deep.equal([all('2026-05-05')]);
      expect(dayEntries(allDay('Ferie', '2026-04-20', '2026-05-03'), zone, '2026-05-01', '2026-05-31')).to.deep.equal([all('2026-05-01'), all('2026-05-02')]);
    });
  });

  describe('the dinner hour', () => {
    it('is touched by an entry overlapping [dinnerTime, dinnerTime + 1 h), or starting inside it when it has no length', () => {
      const at = (startTime: string | null, endTime: string | null) => touchesDinnerHour(entry('2026-05-05', 'x', startTime, endTime), '18:00');
      expect(at('17:00', '18:00')).to.equal(false);
      expect(at('17:00', '18:01')).to.equal(true);
      expect(at('18:59', '20:00')).to.equal(true);
      expect(at('19:00', '20:00')).to.equal(false);
      expect(at('18:30', '18:30')).to.equal(true);
      expect(at('19:00', '19:00')).to.equal(false);
      // Began an earlier day, or runs past midnight (a phone's 20:00-02:00 too).
      expect(at(null, '18:15')).to.equal(true);
      expect(at(null, '17:59')).to.equal(false);
      expect(at('17:30', null)).to.equal(true);
      expect(at('18:30', '02:00')).to.equal(true);
      expect(touchesDinnerHour(entry('2026-05-05', 'x', null, null, { isAllDay: true }), '18:00')).to.equal(false);
    });

    it('names one entry per day: the earliest start, then title, then earliest end, then the feed listed first', () => {
      const busy = busyEvenings(
        [
          [entry('2026-05-05', 'Korps', '17:30', '19:00'), entry('2026-05-06', 'B', '18:00', '19:00'), entry('2026-05-07', 'Same', '18:00', '20:00')],
          [
            entry('2026-05-05', 'Fotball', '17:00', '18:30'),
            entry('2026-05-06', 'A', '18:00', '19:00'),
            entry('2026-05-07', 'Same', '18:00', '19:00', { location: 'second feed' }),
            entry('2026-05-08', 'Bursdag', null, null, { isAllDay: true }),
          ],
        ],
        '18:00',
      );
      expect(busy).to.deep.equal([
        { date: '2026-05-05', title: 'Fotball', startTime: '17:00', endTime: '18:30' },
        { date: '2026-05-06', title: 'A', startTime: '18:00', endTime: '19:00' },
        { date: '2026-05-07', title: 'Same', startTime: '18:00', endTime: '19:00' },
      ]);
    });
  });

  describe('GET calendar-events', () => {
    it('answers every feed as its own slice on the household wall clock, and the busy evenings of the window', async () => {
      const { deps, clock, calendar, owner, junior, householdId } = await calendarSetup();
      const url = 'https://calendar.example.com/school.ics';
      calendar.serve(url, [
        timed('Foreldremøte', '2026-05-05T16:00:00Z', '2026-05-05T17:30:00Z', 'Skolen'),
        // A weekly occurrence, as the fetcher hands recurring events: one per week.
        timed('Svømming', '2026-05-06T15:30:00Z', '2026-05-06T16:30:00Z'),
        timed('Svømming', '2026-05-13T15:30:00Z', '2026-05-13T16:30:00Z'),
        allDay('17. mai', '2026-05-17', '2026-05-18'),
        timed('Lenge etter', '2026-07-01T16:00:00Z', '2026-07-01T17:00:00Z'),
      ]);
      const school = value(await createCalendarFeed(deps, owner, householdId, { name: 'Skole', url }));
      clock.advance(1000);
      const phone = value(
        await syncDeviceCalendar(deps, junior.account, householdId, {
          deviceKey: 'k',
          name: 'Junior',
          events: [ev('2026-05-07', { title: 'Korps', startTime: '17:45', endTime: '19:00' }), ev('2026-05-20', { title: 'Utenfor vinduet' })],
        }),
      );
      const r = value(await upcomingCalendarEvents(deps, junior.account, householdId, { from: null, to: null }));
      expect(r.from).to.equal('2026-05-04');
      expect(r.to).to.equal('2026-05-18');
      expect(r.feeds.map((s) => [s.feed.id, s.unreadable])).to.deep.equal([
        [school.id, null],
        [phone.id, null],
      ]);
      expect(r.feeds[0]!.events).to.deep.equal([
        entry('2026-05-05', 'Foreldremøte', '18:00', '19:30', { location: 'Skolen' }),
        entry('2026-05-06', 'Svømming', '17:30', '18:30'),
        entry('2026-05-13', 'Svømming', '17:30', '18:30'),
        entry('2026-05-17', '17. mai', null, null, { isAllDay: true }),
      ]);
      expect(r.feeds[1]!.events).to.deep.equal([ev('2026-05-07', { title: 'Korps', startTime: '17:45', endTime: '19:00' })]);
      expect(r.busyEvenings).to.deep.equal([
        { date: '2026-05-05', title: 'Foreldremøte', startTime: '18:00', endTime: '19:30' },
        { date: '2026-05-06', title: 'Svømming', startTime: '17:30', endTime: '18:30' },
        { date: '2026-05-07', title: 'Korps', startTime: '17:45', endTime: '19:00' },
        { date: '2026-05-13', title: 'Svømming', startTime: '17:30', endTime: '18:30' },
      ]);
      // The read went out for the household's local days 4-18 May, both included.
      expect(calendar.fetched).to.deep.equal([url]);
    });

    it('an unreadable feed gets the fixed error on its own slice and hides no other; only a good read is recorded', async () => {
      const { deps, clock, calendar, owner, householdId } = await calendarSetup();
      calendar.serve('https://good.example/a.ics', [timed('Møte', '2026-05-05T16:00:00Z', '2026-05-05T17:00:00Z')]);
      calendar.fail('https://broken.example/a.ics', 'http-status');
      const good = value(await createCalendarFeed(deps, owner, householdId, { name: 'Good', url: 'https://good.example/a.ics' }));
      clock.advance(1000);
      const broken = value(await createCalendarFeed(deps, owner, householdId, { name: 'Broken', url: 'https://broken.example/a.ics' }));
      clock.advance(1000);
      const nowhere = value(await createCalendarFeed(deps, owner, householdId, { name: 'Nowhere', url: 'https://does-not-resolve.example/a.ics' }));
      clock.advance(1000);
      const r = value(await upcomingCalendarEvents(deps, owner, householdId, { from: null, to: null }));
      expect(r.feeds.map((s) => [s.feed.name, s.events.length, s.unreadable !== null])).to.deep.equal([
        ['Good', 1, false],
        ['Broken', 0, true],
        ['Nowhere', 0, true],
      ]);
      expect(r.feeds.map((f) => f.unreadable?.reason ?? null)).to.deep.equal([null, 'http-status', 'unresolvable']);
      expect(FEED_UNREADABLE).to.equal('feed_unreadable');
      expect(r.busyEvenings).to.have.length(1);
      const list = value(await listCalendarFeeds(deps, owner, householdId, { deviceKey: null }));
      expect(list.map((f) => [f.id, f.syncedAt, f.eventCount])).to.deep.equal([
        [good.id, clock.now(), 1],
        [broken.id, null, null],
        [nowhere.id, null, null],
      ]);
    });

    it('follows the household\'s dinnerTime and time zone', async () => {
      const { deps, calendar, owner, householdId } = await calendarSetup();
      calendar.serve('https://cal.example/a.ics', [timed('Trening', '2026-05-05T14:30:00Z', '2026-05-05T15:30:00Z')]); // 16:30-17:30 in Oslo
      value(await createCalendarFeed(deps, owner, householdId, { name: 'A', url: 'https://cal.example/a.ics' }));
      expect(value(await upcomingCalendarEvents(deps, owner, householdId, { from: null, to: null })).busyEvenings).to.deep.equal([]);
      value(await updateHousehold(deps, owner, householdId, { dinnerTime: '17:00' }));
      expect(value(await upcomingCalendarEvents(deps, owner, householdId, { from: null, to: null })).busyEvenings).to.deep.equal([
        { date: '2026-05-05', title: 'Trening', startTime: '16:30', endTime: '17:30' },
      ]);
      value(await updateHousehold(deps, owner, householdId, { timeZoneId: 'UTC', dinnerTime: '14:00' }));
      expect(value(await upcomingCalendarEvents(deps, owner, householdId, { from: null, to: null })).busyEvenings).to.deep.equal([
        { date: '2026-05-05', title: 'Trening', startTime: '14:30', endTime: '15:30' },
      ]);
    });

    it('refuses a window that ends before it starts, and a stranger', async () => {
      const { deps, owner, stranger, householdId } = await calendarSetup();
      expect(error(await upcomingCalendarEvents(deps, owner, householdId, { from: '2026-05-10', to: '2026-05-09' }))).to.equal('calendar-window-invalid');
      expect(error(await upcomingCalendarEvents(deps, stranger, householdId, { from: null, to: null }))).to.equal('household-not-found');
    });
  });
});
