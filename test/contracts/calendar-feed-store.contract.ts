import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { DeviceFeed, IcsFeed } from '../../core/calendar/types.js';
import type { DeviceSync } from '../../ports/calendar-feed-store.js';
import type { Backend, Stores } from './backends.js';
import { ev } from '../support/calendar-events.js';
import { storeSuite } from './suite.js';
import { at, createdAccount, ownedHousehold } from './fixtures.js';

async function household(s: Stores) {
  const { id, owner, ownerMemberId: ownerMember } = await ownedHousehold(s);
  const other = await createdAccount(s);
  const otherMember = await s.households.addMember(id, { id: randomUUID(), displayName: 'Adult', role: 'Adult', accountId: other.id, createdAt: at('2026-01-02T00:00:00.000Z') });
  return { id, owner: { accountId: owner.id, memberId: ownerMember }, other: { accountId: other.id, memberId: otherMember.id } };
}

const ics = (householdId: string, over: Partial<IcsFeed> = {}): IcsFeed => ({
  id: randomUUID(),
  householdId,
  kind: 'Ics',
  name: 'Skole',
  url: 'https://calendar.example.com/private/abc/basic.ics?token=xyz',
  createdAt: at('2026-05-01T10:15:30.123Z'),
  syncedAt: null,
  eventCount: null,
  ...over,
});

const sync = (who: { accountId: string; memberId: string }, over: Partial<DeviceSync> = {}): DeviceSync => ({
  newId: randomUUID(),
  ownerAccountId: who.accountId,
  ownerMemberId: who.memberId,
  deviceKey: 'phone-1',
  name: 'iPhone',
  events: [],
  at: at('2026-05-02T08:00:00.001Z'),
  ...over,
});

export function calendarFeedStoreContract(backend: Backend): void {
  storeSuite(backend, 'CalendarFeedStore', (s) => {
    it('round-trips an ICS feed and a device feed with its events (dates, nulls, booleans, order kept)', async () => {
      const h = await household(s);
      const feed = ics(h.id);
      await s.calendarFeeds.addIcs(feed);
      expect(await s.calendarFeeds.byId(h.id, feed.id)).to.deep.equal(feed);
      const events = [
        ev('2026-05-04', { title: 'Ferie', isAllDay: true, startTime: null, endTime: null, location: 'Hytta' }),
        ev('2026-05-04', { title: 'Tannlege', startTime: '08:15', endTime: null }),
        ev('2026-05-05', { title: 'Korps — øving', location: 'Skolen' }),
      ];
      const device = await s.calendarFeeds.syncDevice(h.id, sync(h.owner, { events }));
      const expected: DeviceFeed = {
        id: device.id,
        householdId: h.id,
        kind: 'Device',
        name: 'iPhone',
        ownerAccountId: h.owner.accountId,
        ownerMemberId: h.owner.memberId,
        deviceKey: 'phone-1',
        createdAt: at('2026-05-02T08:00:00.001Z'),
        syncedAt: at('2026-05-02T08:00:00.001Z'),
        eventCount: 3,
      };
      expect(device).to.deep.equal(expected);
      expect(await s.calendarFeeds.byId(h.id, device.id)).to.deep.equal(expected);
      expect(await s.calendarFeeds.feedsOf(h.id)).to.deep.equal([feed, expected]);
      expect(await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-01', '2026-05-31')).to.deep.equal(new Map([[device.id, events]]));
      expect(await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-05', '2026-05-05')).to.deep.equal(new Map([[device.id, [events[2]]]]));
      expect(await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-06', '2026-05-31')).to.deep.equal(new Map());
    });

    it('lists feeds by createdAt, then id, scoped to the household', async () => {
      const h = await household(s);
      const other = await household(s);
      const late = ics(h.id, { createdAt: at('2026-05-03T00:00:00.000Z') });
      const early = ics(h.id, { createdAt: at('2026-05-01T00:00:00.000Z') });
      const tieA = ics(h.id, { id: '00000000-0000-4000-8000-00000000000a', createdAt: at('2026-05-02T00:00:00.000Z') });
      const tieB = ics(h.id, { id: '00000000-0000-4000-8000-00000000000b', createdAt: at('2026-05-02T00:00:00.000Z') });
      const foreign = ics(other.id);
      for (const f of [late, tieB, early, tieA, foreign]) await s.calendarFeeds.addIcs(f);
      expect((await s.calendarFeeds.feedsOf(h.id)).map((f) => f.id)).to.deep.equal([early.id, tieA.id, tieB.id, late.id]);
      expect(await s.calendarFeeds.byId(h.id, foreign.id)).to.equal(null);
      expect(await s.calendarFeeds.remove(h.id, foreign.id)).to.equal(false);
      await s.calendarFeeds.markRead(h.id, foreign.id, at('2026-05-04T00:00:00.000Z'), 5);
      expect(await s.calendarFeeds.byId(other.id, foreign.id)).to.deep.equal(foreign);
      expect(await s.calendarFeeds.byId(h.id, randomUUID())).to.equal(null);
    });

    it('records a read of an ICS feed', async () => {
      const h = await household(s);
      const feed = ics(h.id);
      await s.calendarFeeds.addIcs(feed);
      await s.calendarFeeds.markRead(h.id, feed.id, at('2026-05-04T09:00:00.250Z'), 12);
      expect(await s.calendarFeeds.byId(h.id, feed.id)).to.deep.equal({ ...feed, syncedAt: at('2026-05-04T09:00:00.250Z'), eventCount: 12 });
      await s.calendarFeeds.markRead(h.id, feed.id, at('2026-05-04T10:00:00.000Z'), 0);
      expect(await s.calendarFeeds.byId(h.id, feed.id)).to.deep.include({ eventCount: 0 });
    });

    it('a later sync of the same login and key replaces the feed whole; id and createdAt stay', async () => {
      const h = await household(s);
      const first = await s.calendarFeeds.syncDevice(h.id, sync(h.owner, { events: [ev('2026-05-04'), ev('2026-05-05')] }));
      const second = await s.calendarFeeds.syncDevice(h.id, sync(h.owner, { name: 'Min iPhone', events: [ev('2026-05-06', { title: 'Nytt' })], at: at('2026-05-03T00:00:00.000Z') }));
      expect(second).to.deep.equal({ ...first, name: 'Min iPhone', syncedAt: at('2026-05-03T00:00:00.000Z'), eventCount: 1 });
      expect(await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-01', '2026-05-31')).to.deep.equal(new Map([[first.id, [ev('2026-05-06', { title: 'Nytt' })]]]));
      const emptied = await s.calendarFeeds.syncDevice(h.id, sync(h.owner, { events: [] }));
      expect(emptied.eventCount).to.equal(0);
      expect(await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-01', '2026-05-31')).to.deep.equal(new Map());
      expect(await s.calendarFeeds.feedsOf(h.id)).to.have.length(1);
    });

    it('keys device feeds by login and deviceKey: another login or another key is another feed', async () => {
      const h = await household(s);
      const mine = await s.calendarFeeds.syncDevice(h.id, sync(h.owner, { events: [ev('2026-05-04')] }));
      const pad = await s.calendarFeeds.syncDevice(h.id, sync(h.owner, { deviceKey: 'pad', events: [ev('2026-05-05')] }));
      const theirs = await s.calendarFeeds.syncDevice(h.id, sync(h.other, { events: [ev('2026-05-06')] }));
      expect(new Set([mine.id, pad.id, theirs.id]).size).to.equal(3);
      expect(await s.calendarFeeds.removeDevice(h.id, h.other.accountId, 'pad')).to.equal(false);
      expect(await s.calendarFeeds.removeDevice(h.id, h.owner.accountId, 'pad')).to.equal(true);
      expect(await s.calendarFeeds.removeDevice(h.id, h.owner.accountId, 'pad')).to.equal(false);
      expect([...(await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-01', '2026-05-31')).keys()].sort()).to.deep.equal([mine.id, theirs.id].sort());
    });

    it('concurrent first syncs of one phone leave one feed holding one event list whole', async () => {
      const h = await household(s);
      const lists = Array.from({ length: 4 }, (_, i) => Array.from({ length: 50 }, (_, j) => ev('2026-05-04', { title: `sync ${i} event ${String(j).padStart(2, '0')}` })));
      await Promise.all(lists.map((events) => s.calendarFeeds.syncDevice(h.id, sync(h.owner, { events }))));
      const feeds = await s.calendarFeeds.feedsOf(h.id);
      expect(feeds).to.have.length(1);
      const kept = (await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-01', '2026-05-31')).get(feeds[0]!.id);
      expect(lists).to.deep.include(kept);
    });

    it('removes a feed with its events; a device feed goes with its member row or its account, every feed with the household', async () => {
      const h = await household(s);
      const feed = ics(h.id);
      await s.calendarFeeds.addIcs(feed);
      const device = await s.calendarFeeds.syncDevice(h.id, sync(h.owner, { events: [ev('2026-05-04')] }));
      expect(await s.calendarFeeds.remove(h.id, device.id)).to.equal(true);
      expect(await s.calendarFeeds.remove(h.id, device.id)).to.equal(false);
      expect(await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-01', '2026-05-31')).to.deep.equal(new Map());

      await s.calendarFeeds.syncDevice(h.id, sync(h.other, { events: [ev('2026-05-04')] }));
      expect(await s.households.removeMember(h.id, h.other.memberId)).to.equal(true);
      expect((await s.calendarFeeds.feedsOf(h.id)).map((f) => f.id)).to.deep.equal([feed.id]);

      await s.calendarFeeds.syncDevice(h.id, sync(h.owner, { events: [ev('2026-05-04')] }));
      await s.accounts.delete(h.owner.accountId);
      expect((await s.calendarFeeds.feedsOf(h.id)).map((f) => f.id)).to.deep.equal([feed.id]);
      expect(await s.calendarFeeds.deviceEventsBetween(h.id, '2026-05-01', '2026-05-31')).to.deep.equal(new Map());

      await s.households.delete(h.id);
      expect(await s.calendarFeeds.feedsOf(h.id)).to.deep.equal([]);
      expect(await s.calendarFeeds.byId(h.id, feed.id)).to.equal(null);
    });
  });
}
