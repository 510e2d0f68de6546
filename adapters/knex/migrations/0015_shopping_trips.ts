import type { Knex } from 'knex';
import { addColumnsOnce } from '../schema-kit.js';

export const name = '0015_shopping_trips';

export async function up(knex: Knex): Promise<void> {
  // JSON of the closing's own doing (summary, pantry observation ids, ticks it made); null while the trip is open.
  await addColumnsOnce(knex, 'shopping_lists', 'trip', (t) => {
    t.text('trip').nullable();
  });
}
