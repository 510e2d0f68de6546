import type { Knex } from 'knex';
import { isPostgres } from '../schema-kit.js';

export const name = '0028_household_changes';

/**
 * Postgres: every process is told which household's shopping-list state changed, so that the read cache
 * (adapters/knex/read-cache.ts) can keep a list's state (GET shopping-list's one read on its 304 path) per
 * household and drop only that household's on a change. A NOTIFY on channel `dinner_household_changed`, sent at
 * commit, with the schema and the household's id as its payload (`<schema> <household id>`), or `<schema> *` for a
 * change of every household's state:
 *
 * - `household_revisions`: 0016's triggers move a household's row on every write to the tables a list is derived
 *   from, whichever write path made it;
 * - `shopping_lists`: the list's stamp (version, completion, derivation);
 * - `food_table_syncs`: one row for all households (prices move for everyone).
 *
 * SQLite needs nothing: one process per file, and its read connection sees any commit (`PRAGMA data_version`).
 */
export const HOUSEHOLD_CHANGES_CHANNEL = 'dinner_household_changed';

/** Tables whose writes move a list's state, beside those of 0016 (which move `household_revisions`). */
export const LIST_STATE_TABLES = ['household_revisions', 'shopping_lists', 'food_table_syncs'] as const;

export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex)) return;
  await knex.raw(`
    CREATE OR REPLACE FUNCTION notify_household_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_LEVEL = 'STATEMENT' THEN
        PERFORM pg_notify('${HOUSEHOLD_CHANGES_CHANNEL}', current_schema() || ' *');
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('${HOUSEHOLD_CHANGES_CHANNEL}', current_schema() || ' ' || OLD.household_id);
      ELSE
        PERFORM pg_notify('${HOUSEHOLD_CHANGES_CHANNEL}', current_schema() || ' ' || NEW.household_id);
      END IF;
      RETURN NULL;
    END $$`);
  for (const table of ['household_revisions', 'shopping_lists']) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_household_changed ON ${table}`);
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_all_households_changed ON ${table}`);
    // Per row, to name the household; NOTIFY folds a transaction's identical notifications into one.
    await knex.raw(`CREATE TRIGGER ${table}_household_changed AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION notify_household_changed()`);
    await knex.raw(`CREATE TRIGGER ${table}_all_households_changed AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION notify_household_changed()`);
  }
  await knex.raw('DROP TRIGGER IF EXISTS food_table_syncs_all_households_changed ON food_table_syncs');
  await knex.raw(
    'CREATE TRIGGER food_table_syncs_all_households_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON food_table_syncs FOR EACH STATEMENT EXECUTE FUNCTION notify_household_changed()',
  );
}
