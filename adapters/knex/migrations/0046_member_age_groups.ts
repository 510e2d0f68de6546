import type { Knex } from 'knex';
import { addColumnsOnce } from '../schema-kit.js';

export const name = '0046_member_age_groups';

/**
 * A member's age group (issue 45): Adult, Child or Baby, the words of a guest's guestType and weighed the same in a
 * day's portions (a whole portion, half of one, none), so that a small child who never signs in is a member counted
 * as a child. Every member before it was counted as one whole portion: they are Adults.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'household_members', 'age_group', (t) => {
    t.string('age_group', 8).notNullable().defaultTo('Adult');
  });
}
