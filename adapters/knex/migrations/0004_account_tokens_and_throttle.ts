import type { Knex } from 'knex';

export const name = '0004_account_tokens_and_throttle';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('accounts', 'language'))) {
    await knex.schema.alterTable('accounts', (t) => {
      t.string('language', 8).notNullable().defaultTo('nb');
    });
  }
  // Single-use mail-link tokens (confirm e-mail, reset password, change e-mail), stored only as their hash.
  if (!(await knex.schema.hasTable('account_tokens'))) {
    await knex.schema.createTable('account_tokens', (t) => {
      t.string('token_hash', 64).primary();
      t.uuid('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.string('purpose', 32).notNullable();
      t.string('new_email', 254).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.index(['account_id', 'purpose', 'created_at']);
    });
  }
  // Wrong-password counters per address (hashed, known or not), shared by every process on one database.
  if (!(await knex.schema.hasTable('login_throttle'))) {
    await knex.schema.createTable('login_throttle', (t) => {
      t.string('key', 64).primary();
      t.integer('failures').notNullable();
      t.timestamp('window_started_at', { useTz: true }).notNullable();
      t.timestamp('locked_until', { useTz: true }).nullable();
    });
  }
}
