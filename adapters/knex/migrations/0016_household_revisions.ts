import type { Knex } from 'knex';
import { addColumnsOnce, createTableOnce, instantColumn, isPostgres, ownerKeyColumn } from '../schema-kit.js';

export const name = '0016_household_revisions';

/**
 * Tables whose rows a week's shopping list is derived from, with how a row names its household: its own column,
 * or through its parent row. A trigger on each bumps the household's revision in the writing transaction, so
 * no write path (a store, a cascade, a later feature) can change an input without the revision moving.
 */
export const INPUTS: ReadonlyArray<{ table: string; household: string }> = [
  { table: 'households', household: 'id' },
  { table: 'household_members', household: 'household_id' },
  { table: 'recipes', household: 'household_id' },
  { table: 'recipe_ingredients', household: 'household_id' },
  { table: 'meal_events', household: 'household_id' },
  { table: 'meal_event_participants', household: '(SELECT e.household_id FROM meal_events e WHERE e.id = {row}.event_id)' },
  { table: 'plans', household: 'household_id' },
  { table: 'plan_days', household: '(SELECT p.household_id FROM plans p WHERE p.id = {row}.plan_id)' },
  { table: 'pantry_observations', household: 'household_id' },
  { table: 'pantry_merges', household: 'household_id' },
  { table: 'unit_weights', household: 'household_id' },
];

const OPS = ['INSERT', 'UPDATE', 'DELETE'] as const;

/** The household expression for a row alias (NEW or OLD). */
const of = (input: (typeof INPUTS)[number], row: 'NEW' | 'OLD') =>
  input.household.includes('{row}') ? input.household.replaceAll('{row}', row) : `${row}.${input.household}`;

export async function up(knex: Knex): Promise<void> {
  const postgres = isPostgres(knex);
  await createTableOnce(knex, 'household_revisions', (t) => {
    ownerKeyColumn(t, 'household_id', 'households');
    t.bigInteger('revision').notNullable();
  });
  await knex.raw(
    'INSERT INTO household_revisions (household_id, revision) SELECT h.id, 0 FROM households h WHERE NOT EXISTS (SELECT 1 FROM household_revisions r WHERE r.household_id = h.id)',
  );

  const bump = (input: (typeof INPUTS)[number], row: 'NEW' | 'OLD') => `UPDATE household_revisions SET revision = revision + 1 WHERE household_id = ${of(input, row)};`;
  // A new household starts at revision 0; every other write bumps the row's household (a row never moves between
  // households, so NEW names it for inserts and updates, OLD for deletes).
  const statement = (input: (typeof INPUTS)[number], op: (typeof OPS)[number]) =>
    input.table === 'households' && op === 'INSERT'
      ? `INSERT INTO household_revisions (household_id, revision) VALUES (NEW.id, 0) ON CONFLICT (household_id) DO NOTHING;`
      : bump(input, op === 'DELETE' ? 'OLD' : 'NEW');
  if (postgres) {
    // One function per input table: plpgsql cannot name a column of NEW/OLD from a trigger argument.
    for (const input of INPUTS) {
      const fn = `bump_revision_${input.table}`;
      const branches = OPS.map((op) => `IF TG_OP = '${op}' THEN ${statement(input, op)} END IF;`).join('\n          ');
      await knex.raw(`
        CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          ${branches}
          RETURN NULL;
        END $$`);
      await knex.raw(`DROP TRIGGER IF EXISTS ${input.table}_revision ON ${input.table}`);
      await knex.raw(`CREATE TRIGGER ${input.table}_revision AFTER INSERT OR UPDATE OR DELETE ON ${input.table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    }
  } else {
    for (const input of INPUTS) {
      for (const op of OPS) {
        await knex.raw(`CREATE TRIGGER IF NOT EXISTS ${input.table}_revision_${op.toLowerCase()} AFTER ${op} ON ${input.table} FOR EACH ROW BEGIN ${statement(input, op)} END`);
      }
    }
  }

  // What the stored list was derived from, until when that holds, and the references of recipes added by hand.
  for (const [column, add] of [
    ['derived_from', (t: Knex.AlterTableBuilder) => t.string('derived_from', 200).nullable()],
    ['fresh_until', (t: Knex.AlterTableBuilder) => instantColumn(t, 'fresh_until').nullable()],
    ['added_references', (t: Knex.AlterTableBuilder) => t.text('added_references').nullable()],
  ] as const) {
    await addColumnsOnce(knex, 'shopping_lists', column, (t) => void add(t));
  }
}
