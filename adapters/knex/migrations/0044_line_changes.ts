import type { Knex } from 'knex';
import { addColumnsOnce } from '../schema-kit.js';

export const name = '0044_line_changes';

/**
 * The later action wins (issue 44): a list keeps each line's last change by a person (who, what, when it was made;
 * a removed line as it was) as JSON text, so that a change made offline and sent later can lose to a later one by
 * someone else, and a removed line can come back (core/shopping/line-changes.ts). Null on every existing list: no
 * person's change is known there.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'shopping_lists', 'person_changes', (t) => {
    t.text('person_changes').nullable();
  });
}
