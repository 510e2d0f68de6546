import type { Knex } from 'knex';
import { accountColumn, createTableOnce, hashKeyColumn, instants } from '../schema-kit.js';

export const name = '0005_identities';

export async function up(knex: Knex): Promise<void> {
  // Identities vouched for by sign-in providers, one account each; an account may have several.
  await createTableOnce(knex, 'account_identities', (t) => {
    t.string('issuer', 500).notNullable();
    t.string('subject', 255).notNullable();
    accountColumn(t);
    t.string('email', 254).nullable();
    instants(t, 'created_at');
    t.primary(['issuer', 'subject']);
    t.index(['account_id']);
  });
  // Social sign-ins between challenge and callback (ten minutes at most), keyed by the hash of their state.
  await createTableOnce(knex, 'sign_in_flows', (t) => {
    hashKeyColumn(t, 'state_hash');
    t.string('provider', 40).notNullable();
    t.string('code_verifier', 128).notNullable();
    t.string('nonce', 128).notNullable();
    t.text('return_url').notNullable();
    t.text('app_redirect_uri').nullable();
    t.string('app_code_challenge', 128).nullable();
    instants(t, 'created_at', 'expires_at');
    t.index(['expires_at']);
  });
  // One-time codes of the app flow (two minutes), stored only as their hash.
  await createTableOnce(knex, 'sign_in_codes', (t) => {
    hashKeyColumn(t, 'code_hash');
    accountColumn(t);
    t.string('code_challenge', 128).notNullable();
    instants(t, 'created_at', 'expires_at');
    t.index(['account_id']);
    t.index(['expires_at']);
  });
}
