import type { Knex } from 'knex';
import { createTableOnce, householdColumn, idColumn, instants, optionalInstants, optionalRefColumn, ownerColumn } from '../schema-kit.js';

export const name = '0010_plans';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'plans', (t) => {
    idColumn(t);
    householdColumn(t);
    t.string('week_start', 10).notNullable(); // YYYY-MM-DD, a Monday
    optionalInstants(t, 'list_stale_since');
    instants(t, 'created_at', 'updated_at');
    // One plan per household and week: concurrent get-or-create calls meet here.
    t.unique(['household_id', 'week_start']);
  });
  await createTableOnce(knex, 'plan_days', (t) => {
    idColumn(t);
    ownerColumn(t, 'plan_id', 'plans');
    t.string('date', 10).notNullable();
    // A deleted recipe leaves the day without a dish.
    optionalRefColumn(t, 'recipe_id', 'recipes');
    t.integer('portions_override').nullable();
    t.text('note').nullable();
    t.unique(['plan_id', 'date']);
  });
}
