import type { CalendarEvent, CalendarFeed, DeviceFeed } from '../../core/calendar/types.js';
import type { CalendarFeedStore } from '../../ports/calendar-feed-store.js';
import type { MemoryTables } from './stores.js';

const copy = <T>(v: T): T => structuredClone(v);

export function memoryCalendarFeedStore(t: MemoryTables): CalendarFeedStore {
  const feeds = new Map<string, CalendarFeed>();
  const events = new Map<string, CalendarEvent[]>();
  // As the SQL cascades do: a feed goes with its household, a device feed with the member row or the account that
  // pushed it (an account's removal leaves its member rows without an account).
  const alive = (f: CalendarFeed) => {
    if (!t.households.has(f.householdId)) return false;
    if (f.kind === 'Ics') return true;
    const m = t.members.get(f.ownerMemberId);
    return m !== undefined && m.householdId === f.householdId && m.accountId === f.ownerAccountId;
  };
  const of = (householdId: string) =>
    [...feeds.values()]
      .filter((f) => f.householdId === householdId && alive(f))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const deviceOf = (householdId: string, accountId: string, deviceKey: string) =>
    of(householdId).find((f): f is DeviceFeed => f.kind === 'Device' && f.ownerAccountId === accountId && f.deviceKey === deviceKey);
  const drop = (id: string) => {
    feeds.delete(id);
    events.delete(id);
  };
  return {
    async feedsOf(householdId) {
      return of(householdId).map(copy);
    },
    async byId(householdId, feedId) {
      const f = feeds.get(feedId);
      return f && f.householdId === householdId && alive(f) ? copy(f) : null;
    },
    async addIcs(feed) {
      if (feeds.has(feed.id)) throw new Error('calendar feed id taken');
      if (!t.households.has(feed.householdId)) throw new Error('no such household');
      feeds.set(feed.id, copy(feed));
    },
    async markRead(householdId, feedId, at, eventCount) {
      const f = feeds.get(feedId);
      if (f && f.kind === 'Ics' && f.householdId === householdId && alive(f)) feeds.set(feedId, { ...f, syncedAt: new Date(at.getTime()), eventCount });
    },
    async syncDevice(householdId, s) {
      if (!t.households.has(householdId)) throw new Error('no such household');
      // A feed whose owner went (and whose rows the database would have dropped) is not found again.
      for (const [id, f] of feeds) if (f.householdId === householdId && !alive(f)) drop(id);
      const before = deviceOf(householdId, s.ownerAccountId, s.deviceKey);
      const feed: DeviceFeed = {
        id: before?.id ?? s.newId,
        householdId,
        kind: 'Device',
        name: s.name,
        ownerAccountId: s.ownerAccountId,
        ownerMemberId: s.ownerMemberId,
        deviceKey: s.deviceKey,
        createdAt: before?.createdAt ?? s.at,
        syncedAt: s.at,
        eventCount: s.events.length,
      };
      feeds.set(feed.id, copy(feed));
      events.set(feed.id, copy([...s.events]));
      return copy(feed);
    },
    async deviceEventsBetween(householdId, from, to) {
      const out = new Map<string, CalendarEvent[]>();
      for (const f of of(householdId)) {
        if (f.kind !== 'Device') continue;
        const within = (events.get(f.id) ?? []).filter((e) => e.date >= from && e.date <= to);
        if (within.length > 0) out.set(f.id, copy(within));
      }
      return out;
    },
    async remove(householdId, feedId) {
      const f = feeds.get(feedId);
      if (!f || f.householdId !== householdId || !alive(f)) return false;
      drop(feedId);
      return true;
    },
    async removeDevice(householdId, accountId, deviceKey) {
      const f = deviceOf(householdId, accountId, deviceKey);
      if (!f) return false;
      drop(f.id);
      return true;
    },
  };
}
