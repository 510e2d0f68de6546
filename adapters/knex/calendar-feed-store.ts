import type { Knex } from 'knex';
import type { CalendarEvent, CalendarFeed, DeviceFeed } from '../../core/calendar/types.js';
import type { CalendarFeedStore } from '../../ports/calendar-feed-store.js';
import { translated } from './errors.js';
import { iso, toBool, toDate } from './rows.js';

interface FeedRow {
  id: string;
  household_id: string;
  kind: string;
  name: string;
  url: string | null;
  owner_account_id: string | null;
  owner_member_id: string | null;
  device_key: string | null;
  created_at: Date | string;
  synced_at: Date | string | null;
  event_count: number | string | null;
}

interface EventRow {
  feed_id: string;
  position: number;
  date: string;
  start_time: string | null;
  end_time: string | null;
  is_all_day: boolean | number;
  title: string;
  location: string | null;
}

function toFeed(r: FeedRow): CalendarFeed {
  const common = {
    id: r.id,
    householdId: r.household_id,
    name: r.name,
    createdAt: toDate(r.created_at),
    syncedAt: r.synced_at === null ? null : toDate(r.synced_at),
    eventCount: r.event_count === null ? null : Number(r.event_count),
  };
  return r.kind === 'Device'
    ? { ...common, kind: 'Device', ownerAccountId: r.owner_account_id!, ownerMemberId: r.owner_member_id!, deviceKey: r.device_key! }
    : { ...common, kind: 'Ics', url: r.url! };
}

const toEvent = (r: EventRow): CalendarEvent => ({
  title: r.title,
  date: r.date,
  startTime: r.start_time,
  endTime: r.end_time,
  isAllDay: toBool(r.is_all_day),
  location: r.location,
});

const ORDER = [{ column: 'created_at' }, { column: 'id' }];
// 500 events of 8 columns stay well below both databases' bound-variable limits in chunks of this size.
const CHUNK = 200;

export function knexCalendarFeedStore(knex: Knex): CalendarFeedStore {
  const feeds = (db: Knex | Knex.Transaction = knex) => db<FeedRow>('calendar_feeds');
  return translated<CalendarFeedStore>(knex, {
    async feedsOf(householdId) {
      return ((await feeds().where({ household_id: householdId }).orderBy(ORDER)) as FeedRow[]).map(toFeed);
    },
    async byId(householdId, feedId) {
      const row = (await feeds().where({ household_id: householdId, id: feedId }).first()) as FeedRow | undefined;
      return row ? toFeed(row) : null;
    },
    async addIcs(f) {
      await feeds().insert({
        id: f.id,
        household_id: f.householdId,
        kind: 'Ics',
        name: f.name,
        url: f.url,
        owner_account_id: null,
        owner_member_id: null,
        device_key: null,
        created_at: iso(f.createdAt),
        synced_at: f.syncedAt === null ? null : iso(f.syncedAt),
        event_count: f.eventCount,
      });
    },
    async markRead(householdId, feedId, at, eventCount) {
      await feeds().where({ household_id: householdId, id: feedId, kind: 'Ics' }).update({ synced_at: iso(at), event_count: eventCount });
    },
    async syncDevice(householdId, s) {
      return knex.transaction(async (trx) => {
        const key = { household_id: householdId, owner_account_id: s.ownerAccountId, device_key: s.deviceKey };
        const changes = { name: s.name, owner_member_id: s.ownerMemberId, synced_at: iso(s.at), event_count: s.events.length };
        // The upsert takes the row's lock first, so a second sync of the same phone waits for this one to end.
        await feeds(trx)
          .insert({ id: s.newId, ...key, kind: 'Device', url: null, created_at: iso(s.at), ...changes })
          .onConflict(['household_id', 'owner_account_id', 'device_key'])
          .merge(changes);
        const row = (await feeds(trx).where(key).first()) as FeedRow;
        await trx('calendar_device_events').where({ feed_id: row.id }).delete();
        const rows = s.events.map((e, position) => ({
          feed_id: row.id,
          position,
          date: e.date,
          start_time: e.startTime,
          end_time: e.endTime,
          is_all_day: e.isAllDay,
          title: e.title,
          location: e.location,
        }));
        for (let i = 0; i < rows.length; i += CHUNK) await trx('calendar_device_events').insert(rows.slice(i, i + CHUNK));
        return toFeed(row) as DeviceFeed;
      });
    },
    async deviceEventsBetween(householdId, from, to) {
      const rows = (await knex<EventRow>('calendar_device_events as e')
        .join('calendar_feeds as f', 'f.id', 'e.feed_id')
        .where('f.household_id', householdId)
        .andWhere('e.date', '>=', from)
        .andWhere('e.date', '<=', to)
        .orderBy([{ column: 'e.feed_id' }, { column: 'e.position' }])
        .select('e.*')) as EventRow[];
      const out = new Map<string, CalendarEvent[]>();
      for (const r of rows) {
        const list = out.get(r.feed_id) ?? [];
        list.push(toEvent(r));
        out.set(r.feed_id, list);
      }
      return out;
    },
    async remove(householdId, feedId) {
      return (await feeds().where({ household_id: householdId, id: feedId }).delete()) > 0;
    },
    async removeDevice(householdId, accountId, deviceKey) {
      return (await feeds().where({ household_id: householdId, owner_account_id: accountId, device_key: deviceKey }).delete()) > 0;
    },
  });
}
