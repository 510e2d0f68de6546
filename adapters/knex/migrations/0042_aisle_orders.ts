import type { Knex } from 'knex';
import { createTableOnce, householdColumn, instants, ownerColumn } from '../schema-kit.js';

export const name = '0042_aisle_orders';

/**
 * Aisles in the order a household walks its store (issue 44): the log of ticks that teaches it, per store and list
 * (kept for the store's newest lists only, core/shopping/aisle-order.ts TRIPS_KEPT), and an order set by hand per
 * store. Both go with the household; a list's ticks go with the list.
 */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'aisle_ticks', (t) => {
    // The order of the ticks: a tick's place in its trip is its place in this sequence.
    t.increments('seq');
    householdColumn(t);
    // The chain the household shopped at, or core's MY_STORE.
    t.string('store', 100).notNullable();
    ownerColumn(t, 'list_id', 'shopping_lists');
    t.uuid('plan_id').notNullable();
    t.uuid('line_id').notNullable();
    t.string('aisle', 32).notNullable();
    instants(t, 'ticked_at');
    // A line counts once per list: ticked again, its earlier tick goes.
    t.unique(['list_id', 'line_id']);
    // The store's trips, read and pruned per household and store.
    t.index(['household_id', 'store', 'list_id']);
  });
  await createTableOnce(knex, 'aisle_hand_orders', (t) => {
    householdColumn(t);
    t.string('store', 100).notNullable();
    // JSON array of every aisle once, in the order set.
    t.text('aisles').notNullable();
    instants(t, 'set_at');
    t.primary(['household_id', 'store']);
  });
}
