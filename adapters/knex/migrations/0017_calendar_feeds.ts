import type { Knex } from 'knex';

export const name = '0017_calendar_feeds';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('calendar_feeds'))) {
    await knex.schema.createTable('calendar_feeds', (t) => {
      t.uuid('id').primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.string('kind', 8).notNullable(); // Ics or Device
      t.text('name').notNullable();
      t.text('url').nullable(); // ICS only
      // Device only: the login that pushed it and its member row; either going takes the feed along.
      t.uuid('owner_account_id').nullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.uuid('owner_member_id').nullable().references('id').inTable('household_members').onDelete('CASCADE');
      t.text('device_key').nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('synced_at', { useTz: true }).nullable();
      t.integer('event_count').nullable();
      t.index(['household_id', 'created_at', 'id']);
      // One device feed per login and phone; ICS rows (nulls) never collide. The sync upserts on it.
      t.unique(['household_id', 'owner_account_id', 'device_key']);
      t.index(['owner_account_id']);
      t.index(['owner_member_id']);
    });
  }
  if (!(await knex.schema.hasTable('calendar_device_events'))) {
    await knex.schema.createTable('calendar_device_events', (t) => {
      t.uuid('feed_id').notNullable().references('id').inTable('calendar_feeds').onDelete('CASCADE');
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
}
