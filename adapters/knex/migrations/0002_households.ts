import type { Knex } from 'knex';
import { createTableOnce, householdColumn, idColumn, instants, optionalRefColumn } from '../schema-kit.js';

export const name = '0002_households';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'households', (t) => {
    idColumn(t);
    t.string('name', 80).notNullable();
    t.string('time_zone_id', 64).notNullable();
    t.string('language', 8).notNullable();
    t.string('country', 2).notNullable();
    t.string('dinner_time', 5).notNullable();
    t.text('chains').notNullable(); // JSON array of chain names
    t.string('plan', 16).notNullable();
    instants(t, 'created_at', 'updated_at');
  });
  await createTableOnce(knex, 'household_members', (t) => {
    idColumn(t);
    householdColumn(t);
    optionalRefColumn(t, 'account_id', 'accounts');
    t.string('display_name', 80).notNullable();
    t.string('role', 16).notNullable();
    instants(t, 'created_at');
    // An account is at most one member of a household.
    t.unique(['household_id', 'account_id']);
    t.index(['account_id']);
  });
}
