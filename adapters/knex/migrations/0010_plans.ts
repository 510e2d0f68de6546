import type { Knex } from 'knex';

export const name = '0010_plans';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('plans'))) {
    await knex.schema.createTable('plans', (t) => {
      t.uuid('id').primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.string('week_start', 10).notNullable(); // YYYY-MM-DD, a Monday
      t.timestamp('list_stale_since', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // One plan per household and week: concurrent get-or-create calls meet here.
      t.unique(['household_id', 'week_start']);
    });
  }
  if (!(await knex.schema.hasTable('plan_days'))) {
    await knex.schema.createTable('plan_days', (t) => {
      t.uuid('id').primary();
      t.uuid('plan_id').notNullable().references('id').inTable('plans').onDelete('CASCADE');
      t.string('date', 10).notNullable();
      // A deleted recipe leaves the day without a dish.
      t.uuid('recipe_id').nullable().references('id').inTable('recipes').onDelete('SET NULL');
      t.integer('portions_override').nullable();
      t.text('note').nullable();
      t.unique(['plan_id', 'date']);
    });
  }
}
