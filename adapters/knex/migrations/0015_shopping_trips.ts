import type { Knex } from 'knex';

export const name = '0015_shopping_trips';

export async function up(knex: Knex): Promise<void> {
  // JSON of the closing's own doing (summary, pantry observation ids, ticks it made); null while the trip is open.
  if (!(await knex.schema.hasColumn('shopping_lists', 'trip'))) {
    await knex.schema.alterTable('shopping_lists', (t) => {
      t.text('trip').nullable();
    });
  }
}
