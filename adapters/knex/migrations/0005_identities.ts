import type { Knex } from 'knex';

export const name = '0005_identities';

export async function up(knex: Knex): Promise<void> {
  // Identities vouched for by sign-in providers, one account each; an account may have several.
  if (!(await knex.schema.hasTable('account_identities'))) {
    await knex.schema.createTable('account_identities', (t) => {
      t.string('issuer', 500).notNullable();
      t.string('subject', 255).notNullable();
      t.uuid('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.string('email', 254).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['issuer', 'subject']);
      t.index(['account_id']);
    });
  }
  // Social sign-ins between challenge and callback (ten minutes at most), keyed by the hash of their state.
  if (!(await knex.schema.hasTable('sign_in_flows'))) {
    await knex.schema.createTable('sign_in_flows', (t) => {
      t.string('state_hash', 64).primary();
      t.string('provider', 40).notNullable();
      t.string('code_verifier', 128).notNullable();
      t.string('nonce', 128).notNullable();
      t.text('return_url').notNullable();
      t.text('app_redirect_uri').nullable();
      t.string('app_code_challenge', 128).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.index(['expires_at']);
    });
  }
  // One-time codes of the app flow (two minutes), stored only as their hash.
  if (!(await knex.schema.hasTable('sign_in_codes'))) {
    await knex.schema.createTable('sign_in_codes', (t) => {
      t.string('code_hash', 64).primary();
      t.uuid('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.string('code_challenge', 128).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.index(['account_id']);
      t.index(['expires_at']);
    });
  }
}
