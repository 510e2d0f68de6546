import type { Knex } from 'knex';
import { createTableOnce, householdColumn, instants } from '../schema-kit.js';

export const name = '0011_pantry_observations';

/** The pantry log: append-only observations from which every pantry row is derived (docs/pantry-model.md). */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'pantry_observations', (t) => {
    // seq keeps the order written: two observations in the same millisecond fold in the order they came.
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    householdColumn(t);
    t.text('food_key').notNullable();
    t.text('display_name').nullable();
    t.string('observation_type', 16).notNullable();
    t.double('quantity').nullable();
    t.string('unit', 32).nullable();
    t.string('storage_location', 16).nullable();
    t.double('confidence').nullable();
    instants(t, 'observed_at');
    t.index(['household_id', 'food_key'], 'pantry_observations_household_food');
    // seq too, so that a household's log is read in log order straight from the index, with no sort.
    t.index(['household_id', 'observed_at', 'seq'], 'pantry_observations_household_time');
  });
}
