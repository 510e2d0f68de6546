import type { Knex } from 'knex';

export const name = '0001_accounts_and_sessions';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('accounts'))) {
    await knex.schema.createTable('accounts', (t) => {
      t.uuid('id').primary();
      t.string('email', 254).nullable();
      // Lower-cased copy of email: the unique key that makes addresses case-insensitive.
      t.string('email_normalized', 254).nullable().unique();
      t.boolean('email_confirmed').notNullable().defaultTo(false);
      t.string('display_name', 80).notNullable();
      t.text('password_hash').nullable();
      t.string('security_stamp', 64).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  }
  if (!(await knex.schema.hasTable('sessions'))) {
    await knex.schema.createTable('sessions', (t) => {
      t.string('token_hash', 64).primary();
      t.uuid('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.string('security_stamp', 64).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.index(['account_id']);
      t.index(['expires_at']);
    });
  }
}
