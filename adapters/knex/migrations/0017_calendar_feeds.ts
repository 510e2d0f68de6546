import type { Knex } from 'knex';
import { createTableOnce, householdColumn, idColumn, instants, optionalInstants, optionalRefColumn, ownerColumn } from '../schema-kit.js';

export const name = '0017_calendar_feeds';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'calendar_feeds', (t) => {
    idColumn(t);
    householdColumn(t);
    t.string('kind', 8).notNullable(); // Ics or Device
    t.text('name').notNullable();
    t.text('url').nullable(); // ICS only
    // Device only: the login that pushed it and its member row; either going takes the feed along.
    optionalRefColumn(t, 'owner_account_id', 'accounts', 'CASCADE');
    optionalRefColumn(t, 'owner_member_id', 'household_members', 'CASCADE');
    t.text('device_key').nullable();
    instants(t, 'created_at');
    optionalInstants(t, 'synced_at');
    t.integer('event_count').nullable();
    t.index(['household_id', 'created_at', 'id']);
    // One device feed per login and phone; ICS rows (nulls) never collide. The sync upserts on it.
    t.unique(['household_id', 'owner_account_id', 'device_key']);
    t.index(['owner_account_id']);
    t.index(['owner_member_id']);
  });
  await createTableOnce(knex, 'calendar_device_events', (t) => {
    ownerColumn(t, 'feed_id', 'calendar_feeds');
    t.integer('position').notNullable();
    // YYYY-MM-DD and HH:MM as text: the phone's wall clock, never shifted by a driver's time zone.
    t.string('date', 10).notNullable();
    t.string('start_time', 5).nullable();
    t.string('end_time', 5).nullable();
    t.boolean('is_all_day').notNullable();
    t.text('title').notNullable();
    t.text('location').nullable();
    t.primary(['feed_id', 'position']);
    t.index(['feed_id', 'date']);
  });
}
