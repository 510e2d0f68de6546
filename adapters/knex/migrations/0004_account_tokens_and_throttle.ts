import type { Knex } from 'knex';
import { accountColumn, addColumnsOnce, createTableOnce, hashKeyColumn, instantColumn, instants } from '../schema-kit.js';

export const name = '0004_account_tokens_and_throttle';

export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'accounts', 'language', (t) => {
    t.string('language', 8).notNullable().defaultTo('nb');
  });
  // Single-use mail-link tokens (confirm e-mail, reset password, change e-mail), stored only as their hash.
  await createTableOnce(knex, 'account_tokens', (t) => {
    hashKeyColumn(t, 'token_hash');
    accountColumn(t);
    t.string('purpose', 32).notNullable();
    t.string('new_email', 254).nullable();
    instants(t, 'created_at', 'expires_at');
    t.index(['account_id', 'purpose', 'created_at']);
  });
  // Wrong-password counters per address (hashed, known or not), shared by every process on one database.
  await createTableOnce(knex, 'login_throttle', (t) => {
    hashKeyColumn(t, 'key');
    t.integer('failures').notNullable();
    instants(t, 'window_started_at');
    instantColumn(t, 'locked_until').nullable();
  });
}
