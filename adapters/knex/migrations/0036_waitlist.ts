import type { Knex } from 'knex';

export const name = '0036_waitlist';

/** The waitlist: one row per address, and its single-use links. */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('waitlist_entries'))) {
    await knex.schema.createTable('waitlist_entries', (t) => {
      t.uuid('id').primary();
      // Normalized (trimmed, lower-case): concurrent first requests for one address meet here.
      t.string('email', 254).notNullable().unique();
      t.string('language', 8).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('confirmed_at', { useTz: true }).nullable();
      t.timestamp('last_mailed_at', { useTz: true }).notNullable();
      // Set when an account registers with the address: the row is then the account's and goes with it.
      t.uuid('account_id').nullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.index(['account_id']);
      // The hourly purge of unconfirmed rows.
      t.index(['confirmed_at', 'created_at']);
    });
  }
  // The confirm-link tokens, only as their SHA-256; a token is deleted when spent. When its row goes, an unspent
  // token keeps only its expiry (entry_id null), so that a late click still answers 410, until the purge forgets it.
  if (!(await knex.schema.hasTable('waitlist_tokens'))) {
    await knex.schema.createTable('waitlist_tokens', (t) => {
      t.string('token_hash', 64).primary();
      t.uuid('entry_id').nullable().references('id').inTable('waitlist_entries').onDelete('SET NULL');
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.index(['entry_id']);
      t.index(['expires_at']);
    });
  }
}
