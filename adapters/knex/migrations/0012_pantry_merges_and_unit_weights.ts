import type { Knex } from 'knex';

export const name = '0012_pantry_merges_and_unit_weights';

/**
 * Food keys sort by code point on both databases: Postgres columns get the "C" collation (a locale collation
 * would order '-' and æøå differently from SQLite's binary order, and the keyset paging would disagree).
 */
function keyColumn(knex: Knex, t: Knex.CreateTableBuilder, column: string): void {
  const postgres = (knex.client as { config: { client: unknown } }).config.client === 'pg';
  if (postgres) t.specificType(column, 'varchar(200) collate "C"').notNullable();
  else t.string(column, 200).notNullable();
}

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('pantry_merges'))) {
    await knex.schema.createTable('pantry_merges', (t) => {
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      keyColumn(knex, t, 'from_key');
      keyColumn(knex, t, 'to_key');
      t.string('from_display_name', 200).notNullable();
      t.string('to_display_name', 200).notNullable();
      t.timestamp('merged_at', { useTz: true }).notNullable();
      // A food folds into at most one other.
      t.primary(['household_id', 'from_key']);
      t.index(['household_id', 'to_key']);
    });
  }
  if (!(await knex.schema.hasTable('pantry_merge_rejections'))) {
    await knex.schema.createTable('pantry_merge_rejections', (t) => {
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      // The unordered pair, stored sorted (key_a < key_b): one answer per pair.
      keyColumn(knex, t, 'key_a');
      keyColumn(knex, t, 'key_b');
      t.string('key_a_display_name', 200).notNullable();
      t.string('key_b_display_name', 200).notNullable();
      t.timestamp('decided_at', { useTz: true }).notNullable();
      t.primary(['household_id', 'key_a', 'key_b']);
      t.index(['household_id', 'decided_at']);
    });
  }
  if (!(await knex.schema.hasTable('unit_weights'))) {
    await knex.schema.createTable('unit_weights', (t) => {
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      keyColumn(knex, t, 'food_key');
      keyColumn(knex, t, 'unit');
      t.string('display_name', 200).notNullable();
      t.double('grams').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // One answer per food and unit: concurrent puts meet here.
      t.primary(['household_id', 'food_key', 'unit']);
    });
  }
}
