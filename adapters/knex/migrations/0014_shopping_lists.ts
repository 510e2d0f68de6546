import type { Knex } from 'knex';
import { createTableOnce, householdColumn, idColumn, instants, optionalInstants, ownerColumn } from '../schema-kit.js';

export const name = '0014_shopping_lists';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'shopping_lists', (t) => {
    idColumn(t);
    householdColumn(t);
    // One list per plan: concurrent first reads meet here.
    t.uuid('plan_id').notNullable().unique().references('id').inTable('plans').onDelete('CASCADE');
    t.integer('version').notNullable();
    instants(t, 'generated_at');
    optionalInstants(t, 'completed_at');
    // JSON array of the reference names the week's recipes point at (reported, never bought).
    t.text('skipped_references').notNullable();
    t.index(['household_id']);
  });
  await createTableOnce(knex, 'shopping_list_lines', (t) => {
    idColumn(t);
    ownerColumn(t, 'list_id', 'shopping_lists');
    t.integer('position').notNullable();
    t.string('food_key', 200).notNullable();
    t.string('display_name', 200).notNullable();
    t.double('required_quantity').notNullable();
    t.string('unit', 32).notNullable();
    t.double('extra_quantity').notNullable();
    t.string('status', 16).notNullable();
    t.double('purchased_quantity').notNullable();
    t.string('purchased_unit', 32).nullable();
    t.string('reason_code', 32).notNullable();
    t.double('have_quantity').notNullable();
    t.text('related_plan_entry_ids').notNullable(); // JSON array of plan entry ids
    t.boolean('is_manual').notNullable();
    t.boolean('added_after_shopping').notNullable();
    t.string('aisle', 32).notNullable();
    t.double('suggested_price').nullable();
    t.string('suggested_product_name', 200).nullable();
    t.string('suggested_price_source', 16).notNullable();
    t.boolean('suggested_price_is_aggregate').notNullable();
    t.boolean('tick_notified').notNullable();
    t.index(['list_id', 'position']);
  });
}
