import type { Knex } from 'knex';
import { createTableOnce, instants, optionalInstants, ownerColumn } from '../schema-kit.js';

export const name = '0037_dinner_price_mailings';

/**
 * The monthly dinner-price mail to the dinner-price mailing list: one row
 * per address and month, inserted as the claim before the mail is sent, so that of several processes exactly one
 * mails an address a month's figures. Keyed by the subscriber's id, never the address: the rows go with the
 * address when it leaves the list.
 */
export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'dinner_price_mailings', (t) => {
    ownerColumn(t, 'subscriber_id', 'dinner_price_subscribers');
    t.string('month', 7).notNullable(); // YYYY-MM
    instants(t, 'claimed_at');
    optionalInstants(t, 'sent_at'); // null: refused and given back, or under way, or its run died
    t.primary(['subscriber_id', 'month']);
  });
}
