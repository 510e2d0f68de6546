import type { Knex } from 'knex';
import { addColumnsOnce } from '../schema-kit.js';

export const name = '0033_shopping_settings';

/**
 * A household's shopping settings (the list settings): sharing list
 * changes by push (on unless sharing_off) and the price catalogue (on). Existing households keep what they had:
 * pushes shared, prices shown.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'households', 'sharing_off', (t) => {
    t.boolean('sharing_off').notNullable().defaultTo(false);
    t.boolean('price_catalogue_on').notNullable().defaultTo(true);
  });
}
