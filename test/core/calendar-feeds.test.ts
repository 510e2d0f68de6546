import { expect } from 'chai';
import type { Account } from '../../core/accounts/types.js';
import { deleteDeviceCalendar, syncDeviceCalendar } from '../../core/calendar/device-feeds.js';
import { createCalendarFeed, deleteCalendarFeed, listCalendarFeeds, maskedUrl } from '../../core/calendar/feeds.js';
import { DEVICE_EVENTS_KEPT } from '../../core/calendar/types.js';
import { removeMember } from '../../core/households/members.js';
import { calendarSetup, error, ev, value } from './calendar-support.js';

describe('calendar feeds (domain)', () => {
  describe('ICS feeds', () => {
    it('an adult adds one: the answer carries the whole address, every list masks it to scheme and host', async () => {
      const { deps, clock, owner, adult, junior, householdId } = await calendarSetup();
      const url = 'https://user:pw@calendar.example.com/private/abc123/basic.ics?key=secret';
      const created = value(await createCalendarFeed(deps, adult.account, householdId, { name: '  Skole  ', url }));
      expect(created).to.deep.include({ name: 'Skole', url, kind: 'Ics', syncedAt: null, eventCount: null, isThisDevice: false, isMine: false });
      expect(created.createdAt).to.deep.equal(clock.now());
      for (const who of [owner, adult.account, junior.account]) {
        const list = value(await listCalendarFeeds(deps, who, householdId, { deviceKey: null }));
        expect(list).to.deep.equal([{ ...created, url: 'https://calendar.example.com' }]);
      }
    });

    it('a Junior may not add or remove one (adults-only); a stranger sees no household', async () => {
      const { deps, owner, junior, stranger, householdId } = await calendarSetup();
      const input = { name: 'Skole', url: 'https://calendar.example.com/a.ics' };
      expect(error(await createCalendarFeed(deps, junior.account, householdId, input))).to.equal('adults-only');
      expect(error(await createCalendarFeed(deps, stranger, householdId, input))).to.equal('household-not-found');
      expect(error(await listCalendarFeeds(deps, stranger, householdId, { deviceKey: null }))).to.equal('household-not-found');
      const feed = value(await createCalendarFeed(deps, owner, householdId, input));
      expect(error(await deleteCalendarFeed(deps, junior.account, householdId, feed.id))).to.equal('adults-only');
      expect(value(await listCalendarFeeds(deps, junior.account, householdId, { deviceKey: null }))).to.have.length(1);
    });

    it('refuses addresses the guard refuses, and stores nothing', async () => {
      const { deps, calendar, owner, householdId } = await calendarSetup();
      calendar.resolvesPrivately('intranet.example');
      for (const url of [
        'http://127.0.0.1/a.ics',
        'http://localhost/a.ics',
        'https://10.1.2.3/a.ics',
        'https://192.168.0.10/a.ics',
        'https://169.254.169.254/latest/meta-data',
        'http://[::1]/a.ics',
        'https://calendar.example.com:8443/a.ics',
        'ftp://calendar.example.com/a.ics',
        'webcal://calendar.example.com/a.ics',
        'not a url',
        'https://intranet.example/a.ics',
      ]) {
        const r = await createCalendarFeed(deps, owner, householdId, { name: 'X', url });
        expect(error(r), url).to.equal('calendar-url-forbidden');
      }
      expect(value(await listCalendarFeeds(deps, owner, householdId, { deviceKey: null }))).to.deep.equal([]);
    });

    it('is removed by any adult; an unknown id or another household\'s is not found', async () => {
      const { deps, owner, adult, householdId } = await calendarSetup();
      const other = await calendarSetup();
      const feed = value(await createCalendarFeed(deps, owner, householdId, { name: 'Skole', url: 'https://calendar.example.com/a.ics' }));
      const foreign = value(await createCalendarFeed(other.deps, other.owner, other.householdId, { name: 'Jobb', url: 'https://calendar.example.com/b.ics' }));
      expect(error(await deleteCalendarFeed(deps, owner, householdId, foreign.id))).to.equal('calendar-feed-not-found');
      expect(error(await deleteCalendarFeed(deps, adult.account, householdId, feed.id))).to.equal('ok');
      expect(error(await deleteCalendarFeed(deps, adult.account, householdId, feed.id))).to.equal('calendar-feed-not-found');
      expect(value(await listCalendarFeeds(deps, owner, householdId, { deviceKey: null }))).to.deep.equal([]);
    });

    it('masks to scheme and host, port, path, query and user info left out', () => {
      expect(maskedUrl('https://a:b@cal.example.org:443/x/y.ics?t=1#f')).to.equal('https://cal.example.org');
      expect(maskedUrl('http://127.0.0.1:8123/feed.ics')).to.equal('http://127.0.0.1');
    });
  });

  describe('device feeds', () => {
    it('the first sync creates the feed of the caller\'s login and key; the next replaces it whole, name too', async () => {
      const { deps, clock, junior, householdId } = await calendarSetup();
      const first = value(
        await syncDeviceCalendar(deps, junior.account, householdId, { deviceKey: 'phone-1', name: 'iPhone', events: [ev('2026-05-05'), ev('2026-05-04', { title: 'Korps' })] }),
      );
      expect(first).to.deep.include({ name: 'iPhone', url: '', kind: 'Device', eventCount: 2, isThisDevice: true, isMine: true });
      expect(first.syncedAt).to.deep.equal(clock.now());
      clock.advance(60_000);
      const second = value(await syncDeviceCalendar(deps, junior.account, householdId, { deviceKey: 'phone-1', name: 'Min iPhone', events: [ev('2026-05-06')] }));
      expect(second).to.deep.include({ id: first.id, name: 'Min iPhone', eventCount: 1, createdAt: first.createdAt, syncedAt: clock.now() });
      expect(await deps.calendarFeeds.deviceEventsBetween(householdId, '2026-05-01', '2026-06-30')).to.deep.equal(new Map([[first.id, [ev('2026-05-06')]]]));
      // Sending the same body again leaves the same feed.
      const again = value(await syncDeviceCalendar(deps, junior.account, householdId, { deviceKey: 'phone-1', name: 'Min iPhone', events: [ev('2026-05-06')] }));
      expect({ ...again, syncedAt: null }).to.deep.equal({ ...second, syncedAt: null });
      expect(value(await listCalendarFeeds(deps, junior.account, householdId, { deviceKey: null }))).to.have.length(1);
    });

    it('keeps events dated yesterday through today + 31 in the household zone, all-day ones without times, in date order', async () => {
      const { deps, clock, owner, householdId } = await calendarSetup();
      // 22:30Z on 4 May is already 5 May in Oslo: yesterday is the 4th, the last day 5 June.
      clock.set(new Date('2026-05-04T22:30:00.000Z'));
      const sent = [
        ev('2026-06-05', { title: 'last day' }),
        ev('2026-06-06', { title: 'too late' }),
        ev('2026-05-03', { title: 'too early' }),
        ev('2026-05-04', { title: 'yesterday', startTime: null, endTime: null }),
        ev('2026-05-04', { title: 'ferie', isAllDay: true, startTime: '00:00', endTime: '23:59' }),
      ];
      const feed = value(await syncDeviceCalendar(deps, owner, householdId, { deviceKey: 'k', name: 'Pixel', events: sent }));
      expect(feed.eventCount).to.equal(3);
      const kept = (await deps.calendarFeeds.deviceEventsBetween(householdId, '2026-01-01', '2026-12-31')).get(feed.id);
      expect(kept).to.deep.equal([
        ev('2026-05-04', { title: 'ferie', isAllDay: true, startTime: null, endTime: null }),
        ev('2026-05-04', { title: 'yesterday', startTime: null, endTime: null }),
        ev('2026-06-05', { title: 'last day' }),
      ]);
    });

    it(`keeps the first ${DEVICE_EVENTS_KEPT} in date order when more fall inside the window`, async () => {
      const { deps, owner, householdId } = await calendarSetup();
      const sent = Array.from({ length: 600 }, (_, i) => ev(i < 300 ? '2026-05-10' : '2026-05-05', { title: `e${String(i).padStart(3, '0')}` }));
      const feed = value(await syncDeviceCalendar(deps, owner, householdId, { deviceKey: 'k', name: 'Pixel', events: sent }));
      expect(feed.eventCount).to.equal(DEVICE_EVENTS_KEPT);
      const kept = (await deps.calendarFeeds.deviceEventsBetween(householdId, '2026-05-01', '2026-06-30')).get(feed.id)!;
      expect(kept.filter((e) => e.date === '2026-05-05')).to.have.length(300);
      expect(kept.filter((e) => e.date === '2026-05-10').map((e) => e.title)).to.deep.equal(Array.from({ length: 200 }, (_, i) => `e${String(i).padStart(3, '0')}`));
    });

    it('isThisDevice marks the caller\'s feed with the named key, isMine every feed of the caller', async () => {
      const { deps, clock, owner, adult, householdId } = await calendarSetup();
      const ownerPhone = value(await syncDeviceCalendar(deps, owner, householdId, { deviceKey: 'same-key', name: 'Owner phone', events: [] }));
      clock.advance(1000);
      const ownerPad = value(await syncDeviceCalendar(deps, owner, householdId, { deviceKey: 'pad', name: 'Owner pad', events: [] }));
      clock.advance(1000);
      const adultPhone = value(await syncDeviceCalendar(deps, adult.account, householdId, { deviceKey: 'same-key', name: 'Adult phone', events: [] }));
      expect(adultPhone.id).to.not.equal(ownerPhone.id);
      const flags = async (who: Account, deviceKey: string | null) =>
        value(await listCalendarFeeds(deps, who, householdId, { deviceKey })).map((f) => [f.name, f.isThisDevice, f.isMine]);
      expect(await flags(owner, 'same-key')).to.deep.equal([
        ['Owner phone', true, true],
        ['Owner pad', false, true],
        ['Adult phone', false, false],
      ]);
      expect(await flags(adult.account, 'same-key')).to.deep.equal([
        ['Owner phone', false, false],
        ['Owner pad', false, false],
        ['Adult phone', true, true],
      ]);
      expect(await flags(owner, null)).to.deep.equal([
        ['Owner phone', false, true],
        ['Owner pad', false, true],
        ['Adult phone', false, false],
      ]);
      expect(ownerPad.isThisDevice).to.equal(true);
    });

    it('DELETE by id: the owner of a device feed may, another adult gets calendar-feed-not-yours', async () => {
      const { deps, owner, adult, householdId } = await calendarSetup();
      const phone = value(await syncDeviceCalendar(deps, adult.account, householdId, { deviceKey: 'k', name: 'Adult phone', events: [ev('2026-05-05')] }));
      expect(error(await deleteCalendarFeed(deps, owner, householdId, phone.id))).to.equal('calendar-feed-not-yours');
      expect(error(await deleteCalendarFeed(deps, adult.account, householdId, phone.id))).to.equal('ok');
      expect(await deps.calendarFeeds.deviceEventsBetween(householdId, '2026-05-01', '2026-06-30')).to.deep.equal(new Map());
    });

    it('DELETE by key: only the caller\'s own; another member\'s key is not found', async () => {
      const { deps, owner, junior, householdId } = await calendarSetup();
      value(await syncDeviceCalendar(deps, junior.account, householdId, { deviceKey: 'junior-phone', name: 'Junior', events: [] }));
      expect(error(await deleteDeviceCalendar(deps, owner, householdId, 'junior-phone'))).to.equal('calendar-feed-not-found');
      expect(error(await deleteDeviceCalendar(deps, junior.account, householdId, 'junior-phone'))).to.equal('ok');
      expect(error(await deleteDeviceCalendar(deps, junior.account, householdId, 'junior-phone'))).to.equal('calendar-feed-not-found');
    });

    it('goes with the member who pushed it', async () => {
      const { deps, owner, adult, householdId } = await calendarSetup();
      value(await syncDeviceCalendar(deps, adult.account, householdId, { deviceKey: 'k', name: 'Adult phone', events: [ev('2026-05-05')] }));
      expect(error(await removeMember(deps, owner, householdId, adult.memberId))).to.equal('ok');
      expect(value(await listCalendarFeeds(deps, owner, householdId, { deviceKey: null }))).to.deep.equal([]);
      expect(await deps.calendarFeeds.deviceEventsBetween(householdId, '2026-05-01', '2026-06-30')).to.deep.equal(new Map());
    });
  });
});
