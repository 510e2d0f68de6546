import type { Knex } from 'knex';
import { accountColumn, createTableOnce, householdColumn, idColumn, instants, optionalInstants } from '../schema-kit.js';

export const name = '0051_access_tokens';

/**
 * Personal access tokens (core/households/access-tokens.ts): each acts as its account in one household, reading only
 * or reading and writing, until it expires or is revoked. The secret is kept only as its SHA-256. A token goes with
 * its account and with its household. Not among the read cache's tables: a token is read from the database on every
 * request made with it, so that a revocation counts in every process at once.
 */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'access_tokens', (t) => {
    idColumn(t);
    accountColumn(t);
    householdColumn(t);
    t.string('name', 80).notNullable();
    // read or read-write.
    t.string('scope', 16).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    instants(t, 'created_at', 'expires_at');
    optionalInstants(t, 'last_used_at');
    // An account's list, and the count of its unexpired tokens.
    t.index(['account_id', 'expires_at']);
    t.index(['household_id']);
    t.index(['expires_at']);
  });
}
