import type { Knex } from 'knex';

export const name = '0031_referral_redeemer';

/**
 * A referral code is redeemed at registration: the account that
 * spent it is kept beside used_at. Deleting that account keeps the code spent (SET NULL), so a code works once.
 */
export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasColumn('referral_codes', 'used_by')) return;
  await knex.schema.alterTable('referral_codes', (t) => {
    t.uuid('used_by').nullable().references('id').inTable('accounts').onDelete('SET NULL');
  });
}
