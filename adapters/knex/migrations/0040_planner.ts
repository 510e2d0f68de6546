import type { Knex } from 'knex';
import { addColumnsOnce, createTableOnce, householdColumn, instants, ownerKeyColumn } from '../schema-kit.js';

export const name = '0040_planner';

/**
 * The planner (issue 30): whether a household's suggestions may draw on the shared recipe library (off until it
 * says so), each household's AI calls per month (its quota, AI_MONTHLY_CALLS), and the operator's pause
 * of a household's AI.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'households', 'library_recipes_on', (t) => {
    t.boolean('library_recipes_on').notNullable().defaultTo(false);
  });
  await createTableOnce(knex, 'ai_calls', (t) => {
    householdColumn(t);
    // `YYYY-MM` in the household's time zone.
    t.string('month', 7).notNullable();
    t.integer('calls').notNullable();
    t.primary(['household_id', 'month']);
  });
  await createTableOnce(knex, 'ai_pauses', (t) => {
    ownerKeyColumn(t, 'household_id', 'households');
    instants(t, 'until');
  });
}
