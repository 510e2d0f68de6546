import type { Knex } from 'knex';
import { createTableOnce, isPostgres } from '../schema-kit.js';

export const name = '0026_cached_tables';

/**
 * Tables that are read on nearly every request and seldom written, which each process keeps in memory
 * (adapters/knex/read-cache.ts): the session with its account, the caller's memberships with their households'
 * names, and a household's pantry merges. A trigger on each tells every process of a change, whichever write
 * path made it (a store, a cascade, another process, plain SQL):
 *
 * - SQLite: `cached_tables_revision`, one row, counts the changes; a process looks at it only when
 *   `PRAGMA data_version` says another connection has committed anything since it last looked.
 * - Postgres: a NOTIFY on channel `dinner_cached_tables`, with the schema as its payload, sent at commit (never
 *   for a rolled-back change) to every process listening.
 */
export const CACHED_TABLES = ['accounts', 'sessions', 'households', 'household_members', 'pantry_merges'] as const;

export const CACHED_TABLES_CHANNEL = 'dinner_cached_tables';

export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw(`
      CREATE OR REPLACE FUNCTION notify_cached_tables() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${CACHED_TABLES_CHANNEL}', current_schema());
        RETURN NULL;
      END $$`);
    for (const table of CACHED_TABLES) {
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_cached_changed ON ${table}`);
      // Per statement: a statement touching many rows (expired sessions) notifies once; NOTIFY itself folds
      // identical notifications of one transaction into one.
      await knex.raw(`CREATE TRIGGER ${table}_cached_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION notify_cached_tables()`);
    }
    return;
  }
  const made = await createTableOnce(knex, 'cached_tables_revision', (t) => {
    t.integer('id').primary();
    t.bigInteger('revision').notNullable();
  });
  if (made) await knex('cached_tables_revision').insert({ id: 1, revision: 0 });
  for (const table of CACHED_TABLES) {
    for (const op of ['INSERT', 'UPDATE', 'DELETE']) {
      await knex.raw(`CREATE TRIGGER IF NOT EXISTS ${table}_cached_${op.toLowerCase()} AFTER ${op} ON ${table} FOR EACH ROW BEGIN UPDATE cached_tables_revision SET revision = revision + 1 WHERE id = 1; END`);
    }
  }
}
