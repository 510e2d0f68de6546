import type { Knex } from 'knex';
import { addColumnsOnce } from '../schema-kit.js';

export const name = '0034_household_dislikes';

/**
 * What a household has said it would rather not eat, as a JSON array of its own words, and each shopping-list
 * line's fit against it (preferenceFit). Existing
 * households have said nothing (`[]`), so their lines are NotAssessed.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'households', 'dislikes', (t) => {
    t.text('dislikes').notNullable().defaultTo('[]');
  });
  await addColumnsOnce(knex, 'shopping_list_lines', 'preference_fit', (t) => {
    t.string('preference_fit', 16).notNullable().defaultTo('NotAssessed');
  });
}
