import type { Knex } from 'knex';

export const name = '0040_planner';

/**
 * The planner (issue 30): whether a household's suggestions may draw on the shared recipe library (off until it
 * says so), each household's AI calls per month (its quota, AI_MONTHLY_CALLS), and the operator's pause
 * of a household's AI.
 */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('households', 'library_recipes_on'))) {
    await knex.schema.alterTable('households', (t) => {
      t.boolean('library_recipes_on').notNullable().defaultTo(false);
    });
  }
  if (!(await knex.schema.hasTable('ai_calls'))) {
    await knex.schema.createTable('ai_calls', (t) => {
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      // `YYYY-MM` in the household's time zone.
      t.string('month', 7).notNullable();
      t.integer('calls').notNullable();
      t.primary(['household_id', 'month']);
    });
  }
  if (!(await knex.schema.hasTable('ai_pauses'))) {
    await knex.schema.createTable('ai_pauses', (t) => {
      t.uuid('household_id').primary().references('id').inTable('households').onDelete('CASCADE');
      t.timestamp('until', { useTz: true }).notNullable();
    });
  }
}
