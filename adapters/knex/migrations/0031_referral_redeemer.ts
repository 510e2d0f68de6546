import type { Knex } from 'knex';
import { addColumnsOnce, optionalRefColumn } from '../schema-kit.js';

export const name = '0031_referral_redeemer';

/**
 * A referral code is redeemed at registration: the account that
 * spent it is kept beside used_at. Deleting that account keeps the code spent (SET NULL), so a code works once.
 */
export async function up(knex: Knex): Promise<void> {
  await addColumnsOnce(knex, 'referral_codes', 'used_by', (t) => {
    optionalRefColumn(t, 'used_by', 'accounts');
  });
}
