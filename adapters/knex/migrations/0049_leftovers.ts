import type { Knex } from 'knex';
import { addColumnsOnce } from '../schema-kit.js';

export const name = '0049_leftovers';

/**
 * Planned leftovers ("cook once, eat twice"): a plan day may eat the leftovers of an earlier planned day of the
 * same or the previous week (plan_days.leftovers_of, that day's date; null: the day is not leftovers), and a
 * household says for how many days leftovers keep (households.leftovers_keep_days, 1 to 7; every household before
 * it keeps them the default 3 days).
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'plan_days', 'leftovers_of', (t) => {
    t.string('leftovers_of', 10).nullable();
  });
  await addColumnsOnce(knex, 'households', 'leftovers_keep_days', (t) => {
    t.integer('leftovers_keep_days').notNullable().defaultTo(3);
  });
}
