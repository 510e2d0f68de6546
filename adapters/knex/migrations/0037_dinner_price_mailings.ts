import type { Knex } from 'knex';

export const name = '0037_dinner_price_mailings';

/**
 * The monthly dinner-price mail to the dinner-price mailing list: one row
 * per address and month, inserted as the claim before the mail is sent, so that of several processes exactly one
 * mails an address a month's figures. Keyed by the subscriber's id, never the address: the rows go with the
 * address when it leaves the list.
 */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('dinner_price_mailings'))) {
    await knex.schema.createTable('dinner_price_mailings', (t) => {
      t.uuid('subscriber_id').notNullable().references('id').inTable('dinner_price_subscribers').onDelete('CASCADE');
      t.string('month', 7).notNullable(); // YYYY-MM
      t.timestamp('claimed_at', { useTz: true }).notNullable();
      t.timestamp('sent_at', { useTz: true }).nullable(); // null: refused and given back, or under way, or its run died
      t.primary(['subscriber_id', 'month']);
    });
  }
}
