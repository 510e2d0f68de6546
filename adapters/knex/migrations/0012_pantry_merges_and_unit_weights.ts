import type { Knex } from 'knex';
import { codePointColumn, createTableOnce, householdColumn, instants } from '../schema-kit.js';

export const name = '0012_pantry_merges_and_unit_weights';

/** Food keys sort by code point on both databases (codePointColumn): the keyset paging agrees on both. */
export async function up(knex: Knex): Promise<void> {
  const keyColumns = (t: Knex.CreateTableBuilder, ...columns: string[]) => {
    for (const column of columns) codePointColumn(knex, t, column, 200).notNullable();
  };
  await createTableOnce(knex, 'pantry_merges', (t) => {
    householdColumn(t);
    keyColumns(t, 'from_key', 'to_key');
    t.string('from_display_name', 200).notNullable();
    t.string('to_display_name', 200).notNullable();
    instants(t, 'merged_at');
    // A food folds into at most one other.
    t.primary(['household_id', 'from_key']);
    t.index(['household_id', 'to_key']);
  });
  await createTableOnce(knex, 'pantry_merge_rejections', (t) => {
    householdColumn(t);
    // The unordered pair, stored sorted (key_a < key_b): one answer per pair.
    keyColumns(t, 'key_a', 'key_b');
    t.string('key_a_display_name', 200).notNullable();
    t.string('key_b_display_name', 200).notNullable();
    instants(t, 'decided_at');
    t.primary(['household_id', 'key_a', 'key_b']);
    t.index(['household_id', 'decided_at']);
  });
  await createTableOnce(knex, 'unit_weights', (t) => {
    householdColumn(t);
    keyColumns(t, 'food_key', 'unit');
    t.string('display_name', 200).notNullable();
    t.double('grams').notNullable();
    instants(t, 'updated_at');
    // One answer per food and unit: concurrent puts meet here.
    t.primary(['household_id', 'food_key', 'unit']);
  });
}
