import type { Knex } from 'knex';
import { addColumnsOnce, optionalInstants } from '../schema-kit.js';

export const name = '0035_list_asks';

/**
 * "The week asks before buying more": each shopping list keeps what
 * it was made for (per date with a dish, the dish and its portions, JSON), what generate would add now (JSON) and
 * since when it has had something to add. The list is now the one place that knows it is behind the week, so the
 * plan's own mark (plans.list_stale_since, set by guest events and never cleared) goes. Existing lists were made for
 * the week as it is: an empty `made_for` holds nothing back until their next derivation records it.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'shopping_lists', 'made_for', (t) => {
    t.text('made_for').notNullable().defaultTo('{}');
    t.text('would_add').notNullable().defaultTo('[]');
    optionalInstants(t, 'stale_since');
  });
  // Plain DROP COLUMN on both databases (SQLite ≥ 3.35 does it in place, keeping the plans table's triggers).
  if (await knex.schema.hasColumn('plans', 'list_stale_since')) await knex.raw('ALTER TABLE plans DROP COLUMN list_stale_since');
}
