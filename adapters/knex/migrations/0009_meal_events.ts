import type { Knex } from 'knex';

export const name = '0009_meal_events';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('meal_events'))) {
    await knex.schema.createTable('meal_events', (t) => {
      t.uuid('id').primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      // YYYY-MM-DD as text: a calendar day, never shifted by a driver's time zone, and sortable.
      t.string('date', 10).notNullable();
      t.string('event_type', 16).notNullable();
      t.string('serving_time', 5).nullable();
      t.integer('available_cooking_minutes').nullable();
      t.text('notes').nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // The list order and the plans' week reads.
      t.index(['household_id', 'date', 'created_at', 'id']);
    });
  }
  if (!(await knex.schema.hasTable('meal_event_participants'))) {
    await knex.schema.createTable('meal_event_participants', (t) => {
      t.uuid('id').primary();
      t.uuid('event_id').notNullable().references('id').inTable('meal_events').onDelete('CASCADE');
      // A removed member takes her attendance rows with her: a row naming nobody would count as no one.
      t.uuid('household_member_id').nullable().references('id').inTable('household_members').onDelete('CASCADE');
      t.integer('position').notNullable();
      t.boolean('is_present').notNullable();
      t.string('guest_type', 8).nullable();
      t.integer('guest_count').notNullable();
      t.text('dietary_notes').nullable();
      t.text('avoids').notNullable(); // JSON array of words
      t.index(['event_id', 'position']);
      t.index(['household_member_id']);
    });
  }
}
