import type { Knex } from 'knex';
import { addColumnsOnce } from '../schema-kit.js';

export const name = '0032_pantry_best_before';

/**
 * The best-before date an observation gives (the pantry's dates), as the
 * text YYYY-MM-DD on both databases: a calendar date with no time zone, which the model reads as such.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'pantry_observations', 'best_before', (t) => {
    t.string('best_before', 10).nullable();
  });
}
