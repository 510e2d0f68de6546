import type { Knex } from 'knex';
import { addColumnsOnce, createTableOnce, householdColumn, isPostgres } from '../schema-kit.js';

export const name = '0029_pantry_food_revisions';

/**
 * A revision per food of a household's pantry log, moved by a trigger on every write to one of the food's
 * observations, whichever write path made it (as 0016 moves the household's). POST observations answers the food's
 * row, derived from all of the food's observations; the store keeps a food's log in memory under this revision
 * and, when its write is the one right after the kept revision, adds the new observation instead of reading the log
 * back (adapters/knex/pantry-observation-store.ts). Per food, not per household: writes to other foods (ten
 * clients recording a shop at once) do not get between a food's kept log and its next observation.
 *
 * A food's row is never deleted while its household lives (a food whose observations all went keeps its
 * revision), and a household's id is never reused, so a revision never repeats.
 *
 * Postgres: the insert itself tells which revision it moved the food to (`food_revision`, set by a BEFORE INSERT
 * trigger, returned by RETURNING), so a write needs no second read to know whether it came right after the kept
 * log. That trigger moves the household's revision first, then the food's, and replaces 0016's trigger on this
 * table (updates and deletes do the same, after the row): every write to the log locks the household's revision row
 * before a food's, so two writers never wait for each other's second lock (no deadlock). Before both, it takes the
 * foreign key's own lock on the household's row, which the key's check would otherwise take after them: a
 * household being deleted holds that row, then its revision row, so the order is the same for both.
 * SQLite has one writer at a time: the store reads the food's revision after its insert, and `food_revision` stays
 * null there.
 */
export async function up(knex: Knex): Promise<void> {
  const postgres = isPostgres(knex);
  await createTableOnce(knex, 'pantry_food_revisions', (t) => {
    householdColumn(t);
    // As pantry_observations.food_key.
    t.string('food_key', 200).notNullable();
    t.bigInteger('revision').notNullable();
    t.primary(['household_id', 'food_key']);
  });
  await addColumnsOnce(knex, 'pantry_observations', 'food_revision', (t) => void t.bigInteger('food_revision').nullable());
  await knex.raw(
    'INSERT INTO pantry_food_revisions (household_id, food_key, revision) SELECT DISTINCT o.household_id, o.food_key, 1 FROM pantry_observations o ' +
      'WHERE NOT EXISTS (SELECT 1 FROM pantry_food_revisions r WHERE r.household_id = o.household_id AND r.food_key = o.food_key)',
  );
  // A written row's food gets its revision row if it has none yet. A deleted row's food has one (its insert made it),
  // unless the household itself is going (the cascade takes both), when there is nothing left to move.
  const bumpFood = (row: 'NEW' | 'OLD') =>
    row === 'NEW'
      ? 'INSERT INTO pantry_food_revisions (household_id, food_key, revision) VALUES (NEW.household_id, NEW.food_key, 1) ' +
        'ON CONFLICT (household_id, food_key) DO UPDATE SET revision = pantry_food_revisions.revision + 1'
      : 'UPDATE pantry_food_revisions SET revision = revision + 1 WHERE household_id = OLD.household_id AND food_key = OLD.food_key';
  if (postgres) {
    const bumpHousehold = (row: 'NEW' | 'OLD') => `UPDATE household_revisions SET revision = revision + 1 WHERE household_id = ${row}.household_id;`;
    await knex.raw(`
      CREATE OR REPLACE FUNCTION pantry_observation_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM households WHERE id = NEW.household_id FOR KEY SHARE;
        ${bumpHousehold('NEW')}
        ${bumpFood('NEW')} RETURNING revision INTO NEW.food_revision;
        RETURN NEW;
      END $$`);
    await knex.raw(`
      CREATE OR REPLACE FUNCTION pantry_observation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${bumpHousehold('OLD')}
        ${bumpFood('OLD')};
        IF TG_OP = 'UPDATE' THEN ${bumpFood('NEW')}; END IF;
        RETURN NULL;
      END $$`);
    await knex.raw('DROP TRIGGER IF EXISTS pantry_observations_revision ON pantry_observations');
    await knex.raw('DROP TRIGGER IF EXISTS pantry_observations_inserted ON pantry_observations');
    await knex.raw('DROP TRIGGER IF EXISTS pantry_observations_changed ON pantry_observations');
    await knex.raw('CREATE TRIGGER pantry_observations_inserted BEFORE INSERT ON pantry_observations FOR EACH ROW EXECUTE FUNCTION pantry_observation_inserted()');
    await knex.raw('CREATE TRIGGER pantry_observations_changed AFTER UPDATE OR DELETE ON pantry_observations FOR EACH ROW EXECUTE FUNCTION pantry_observation_changed()');
  } else {
    const bodies = { insert: `${bumpFood('NEW')};`, update: `${bumpFood('OLD')}; ${bumpFood('NEW')};`, delete: `${bumpFood('OLD')};` };
    for (const [op, body] of Object.entries(bodies)) {
      await knex.raw(`CREATE TRIGGER IF NOT EXISTS pantry_observations_food_revision_${op} AFTER ${op.toUpperCase()} ON pantry_observations FOR EACH ROW BEGIN ${body} END`);
    }
  }
}
