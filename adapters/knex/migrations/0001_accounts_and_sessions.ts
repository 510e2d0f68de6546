import type { Knex } from 'knex';
import { accountColumn, createTableOnce, hashKeyColumn, idColumn, instants } from '../schema-kit.js';

export const name = '0001_accounts_and_sessions';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'accounts', (t) => {
    idColumn(t);
    t.string('email', 254).nullable();
    // Lower-cased copy of email: the unique key that makes addresses case-insensitive.
    t.string('email_normalized', 254).nullable().unique();
    t.boolean('email_confirmed').notNullable().defaultTo(false);
    t.string('display_name', 80).notNullable();
    t.text('password_hash').nullable();
    t.string('security_stamp', 64).notNullable();
    instants(t, 'created_at', 'updated_at');
  });
  await createTableOnce(knex, 'sessions', (t) => {
    hashKeyColumn(t, 'token_hash');
    accountColumn(t);
    t.string('security_stamp', 64).notNullable();
    instants(t, 'created_at', 'expires_at');
    t.index(['account_id']);
    t.index(['expires_at']);
  });
}
