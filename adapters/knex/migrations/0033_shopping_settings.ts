import type { Knex } from 'knex';

export const name = '0033_shopping_settings';

/**
 * A household's shopping settings (the list settings): sharing list
 * changes by push (on unless sharing_off) and the price catalogue (on). Existing households keep what they had:
 * pushes shared, prices shown.
 */
export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasColumn('households', 'sharing_off')) return;
  await knex.schema.alterTable('households', (t) => {
    t.boolean('sharing_off').notNullable().defaultTo(false);
    t.boolean('price_catalogue_on').notNullable().defaultTo(true);
  });
}
