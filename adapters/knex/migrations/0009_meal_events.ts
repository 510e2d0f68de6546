import type { Knex } from 'knex';
import { createTableOnce, householdColumn, idColumn, instants, optionalRefColumn, ownerColumn } from '../schema-kit.js';

export const name = '0009_meal_events';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'meal_events', (t) => {
    idColumn(t);
    householdColumn(t);
    // YYYY-MM-DD as text: a calendar day, never shifted by a driver's time zone, and sortable.
    t.string('date', 10).notNullable();
    t.string('event_type', 16).notNullable();
    t.string('serving_time', 5).nullable();
    t.integer('available_cooking_minutes').nullable();
    t.text('notes').nullable();
    instants(t, 'created_at', 'updated_at');
    // The list order and the plans' week reads.
    t.index(['household_id', 'date', 'created_at', 'id']);
  });
  await createTableOnce(knex, 'meal_event_participants', (t) => {
    idColumn(t);
    ownerColumn(t, 'event_id', 'meal_events');
    // A removed member takes her attendance rows with her: a row naming nobody would count as no one.
    optionalRefColumn(t, 'household_member_id', 'household_members', 'CASCADE');
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
