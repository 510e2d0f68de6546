import type { Knex } from 'knex';
import { createTableOnce, instants, optionalInstants } from '../schema-kit.js';

export const name = '0021_dinner_prices';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'dinner_price_measurements', (t) => {
    t.string('household_type', 32).notNullable();
    // ISO week, YYYY-Www: one measurement per household type and week, the first stands.
    t.string('week', 8).notNullable();
    // YYYY-MM-DD of the week's Monday: the publication selects and groups by it.
    t.string('week_start', 10).notNullable().index();
    // uint32 does not fit Postgres' integer.
    t.bigInteger('seed').notNullable();
    t.string('recipe_set_version', 200).notNullable();
    optionalInstants(t, 'prices_synced_at');
    t.integer('recipes_drawn').notNullable();
    t.integer('weeks_drawn').notNullable();
    t.integer('weeks_priced').notNullable();
    t.double('median_week_price').nullable();
    t.double('coverage').notNullable();
    t.integer('chains').notNullable();
    instants(t, 'measured_at');
    t.primary(['household_type', 'week']);
  });
  await createTableOnce(knex, 'dinner_price_publications', (t) => {
    // One row: the files as last built, served as stored.
    t.string('name', 32).primary();
    instants(t, 'generated_at');
    t.text('json').notNullable();
    t.text('csv').notNullable();
  });
}
