import type { Knex } from 'knex';
import { addressListColumns, createTableOnce, hashKeyColumn, instants, optionalRefColumn } from '../schema-kit.js';

export const name = '0036_waitlist';

/** The waitlist: one row per address, and its single-use links. */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'waitlist_entries', (t) => {
    addressListColumns(t);
    // Set when an account registers with the address: the row is then the account's and goes with it.
    optionalRefColumn(t, 'account_id', 'accounts', 'CASCADE');
    t.index(['account_id']);
    // The hourly purge of unconfirmed rows.
    t.index(['confirmed_at', 'created_at']);
  });
  // The confirm-link tokens, only as their SHA-256; a token is deleted when spent. When its row goes, an unspent
  // token keeps only its expiry (entry_id null), so that a late click still answers 410, until the purge forgets it.
  await createTableOnce(knex, 'waitlist_tokens', (t) => {
    hashKeyColumn(t, 'token_hash');
    optionalRefColumn(t, 'entry_id', 'waitlist_entries');
    instants(t, 'expires_at');
    t.index(['entry_id']);
    t.index(['expires_at']);
  });
}
