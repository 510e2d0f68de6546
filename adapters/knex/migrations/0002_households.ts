import type { Knex } from 'knex';

export const name = '0002_households';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('households'))) {
    await knex.schema.createTable('households', (t) => {
      t.uuid('id').primary();
      t.string('name', 80).notNullable();
      t.string('time_zone_id', 64).notNullable();
      t.string('language', 8).notNullable();
      t.string('country', 2).notNullable();
      t.string('dinner_time', 5).notNullable();
      t.text('chains').notNullable(); // JSON array of chain names
      t.string('plan', 16).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  }
  if (!(await knex.schema.hasTable('household_members'))) {
    await knex.schema.createTable('household_members', (t) => {
      t.uuid('id').primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.uuid('account_id').nullable().references('id').inTable('accounts').onDelete('SET NULL');
      t.string('display_name', 80).notNullable();
      t.string('role', 16).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      // An account is at most one member of a household.
      t.unique(['household_id', 'account_id']);
      t.index(['account_id']);
    });
  }
}
