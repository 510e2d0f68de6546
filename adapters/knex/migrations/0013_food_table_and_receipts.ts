import type { Knex } from 'knex';

export const name = '0013_food_table_and_receipts';

/** Keys compare by code point on both databases (see 0012): Postgres columns get the "C" collation. */
function keyColumn(knex: Knex, t: Knex.CreateTableBuilder, column: string, length: number): Knex.ColumnBuilder {
  const postgres = (knex.client as { config: { client: unknown } }).config.client === 'pg';
  return postgres ? t.specificType(column, `varchar(${length}) collate "C"`) : t.string(column, length);
}

export async function up(knex: Knex): Promise<void> {
  // The food table is household-independent: the sync replaces it whole from the food source.
  if (!(await knex.schema.hasTable('food_products'))) {
    await knex.schema.createTable('food_products', (t) => {
      keyColumn(knex, t, 'id', 100).notNullable().primary();
      t.string('ean', 32).nullable();
      t.string('name', 200).notNullable();
      keyColumn(knex, t, 'name_key', 200).notNullable();
      keyColumn(knex, t, 'food_key', 200).notNullable();
      t.string('food_group', 50).notNullable();
      t.integer('nova_group').notNullable();
      t.string('nutri_score', 1).nullable();
      // The chain list prices, a JSON array of { chain, price, unit, packageSize }: always read with the product.
      t.text('prices').notNullable();
      t.index(['ean']);
      t.index(['name_key']);
      t.index(['food_key']);
    });
  }
  if (!(await knex.schema.hasTable('food_table_syncs'))) {
    await knex.schema.createTable('food_table_syncs', (t) => {
      // One row ('food-table'): when the last sync ran.
      t.string('id', 32).notNullable().primary();
      t.timestamp('synced_at', { useTz: true }).notNullable();
    });
  }
  if (!(await knex.schema.hasTable('receipts'))) {
    await knex.schema.createTable('receipts', (t) => {
      t.uuid('id').notNullable().primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.timestamp('purchased_at', { useTz: true }).notNullable();
      t.string('chain', 100).notNullable();
      t.integer('lines_total').notNullable();
      t.integer('lines_recognised').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['household_id', 'purchased_at', 'id']);
    });
  }
  if (!(await knex.schema.hasTable('receipt_lines'))) {
    await knex.schema.createTable('receipt_lines', (t) => {
      t.uuid('receipt_id').notNullable().references('id').inTable('receipts').onDelete('CASCADE');
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
}
