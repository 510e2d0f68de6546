import type { Knex } from 'knex';
import { codePointColumn, createTableOnce, householdColumn, idColumn, instants, ownerColumn } from '../schema-kit.js';

export const name = '0013_food_table_and_receipts';

/** Keys compare by code point on both databases (codePointColumn). */
export async function up(knex: Knex): Promise<void> {
  // The food table is household-independent: the sync replaces it whole from the food source.
  await createTableOnce(knex, 'food_products', (t) => {
    codePointColumn(knex, t, 'id', 100).notNullable().primary();
    t.string('ean', 32).nullable();
    t.string('name', 200).notNullable();
    codePointColumn(knex, t, 'name_key', 200).notNullable();
    codePointColumn(knex, t, 'food_key', 200).notNullable();
    t.string('food_group', 50).notNullable();
    t.integer('nova_group').notNullable();
    t.string('nutri_score', 1).nullable();
    // The chain list prices, a JSON array of { chain, price, unit, packageSize }: always read with the product.
    t.text('prices').notNullable();
    t.index(['ean']);
    t.index(['name_key']);
    t.index(['food_key']);
  });
  await createTableOnce(knex, 'food_table_syncs', (t) => {
    // One row ('food-table'): when the last sync ran.
    t.string('id', 32).notNullable().primary();
    instants(t, 'synced_at');
  });
  await createTableOnce(knex, 'receipts', (t) => {
    idColumn(t).notNullable();
    householdColumn(t);
    instants(t, 'purchased_at');
    t.string('chain', 100).notNullable();
    t.integer('lines_total').notNullable();
    t.integer('lines_recognised').notNullable();
    instants(t, 'created_at');
    t.index(['household_id', 'purchased_at', 'id']);
  });
  await createTableOnce(knex, 'receipt_lines', (t) => {
    ownerColumn(t, 'receipt_id', 'receipts');
    t.integer('position').notNullable();
    t.string('product_name', 200).notNullable();
    t.string('ean', 32).nullable();
    t.double('quantity').notNullable();
    t.double('unit_price').nullable();
    t.double('total_price').nullable();
    // No foreign key: a product the sync removes leaves the line as it was recorded (it then counts as unknown).
    t.string('product_id', 100).nullable();
    t.primary(['receipt_id', 'position']);
  });
}
