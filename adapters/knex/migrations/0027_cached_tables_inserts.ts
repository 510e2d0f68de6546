import type { Knex } from 'knex';
import { isPostgres } from '../schema-kit.js';
import { CACHED_TABLES } from './0026_cached_tables.js';

export const name = '0027_cached_tables_inserts';

/**
 * A new row of `accounts`, `sessions` or `households` changes no value the read cache holds: a session is kept only
 * once found, and a household reaches a caller's memberships only with its member row. So inserts into these three
 * no longer announce a change (0026 announced every write): every sign-in inserts a session, and emptied every
 * process's cache (W7 in docs/performance.md). Inserts into `household_members` and `pantry_merges` still do.
 */
export const INSERT_CHANGES_NOTHING: readonly string[] = ['accounts', 'sessions', 'households'];

export async function up(knex: Knex): Promise<void> {
  const postgres = isPostgres(knex);
  for (const table of CACHED_TABLES) {
    const ops = INSERT_CHANGES_NOTHING.includes(table) ? ['UPDATE', 'DELETE'] : ['INSERT', 'UPDATE', 'DELETE'];
    if (postgres) {
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_cached_changed ON ${table}`);
      // notify_cached_tables() is 0026's: NOTIFY dinner_cached_tables with the schema.
      await knex.raw(`CREATE TRIGGER ${table}_cached_changed AFTER ${[...ops, 'TRUNCATE'].join(' OR ')} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION notify_cached_tables()`);
    } else if (!ops.includes('INSERT')) {
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_cached_insert`);
    }
  }
}
