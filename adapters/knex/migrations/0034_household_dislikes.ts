import type { Knex } from 'knex';

export const name = '0034_household_dislikes';

/**
 * What a household has said it would rather not eat, as a JSON array of its own words, and each shopping-list
 * line's fit against it (preferenceFit). Existing
 * households have said nothing (`[]`), so their lines are NotAssessed.
 */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('households', 'dislikes'))) {
    await knex.schema.alterTable('households', (t) => {
      t.text('dislikes').notNullable().defaultTo('[]');
    });
  }
  if (!(await knex.schema.hasColumn('shopping_list_lines', 'preference_fit'))) {
    await knex.schema.alterTable('shopping_list_lines', (t) => {
      t.string('preference_fit', 16).notNullable().defaultTo('NotAssessed');
    });
  }
}
