import type { Knex } from 'knex';
import { addressListColumns, createTableOnce, hashKeyColumn, instants, optionalInstants, optionalRefColumn } from '../schema-kit.js';

export const name = '0022_dinner_price_subscribers';

export async function up(knex: Knex): Promise<void> {
  // The dinner-price list: one row per address, deleted (not marked) when it leaves.
  await createTableOnce(knex, 'dinner_price_subscribers', (t) => {
    addressListColumns(t);
    // The hourly purge of unconfirmed rows.
    t.index(['confirmed_at', 'created_at']);
  });
  // The tokens of the mail links, only as their SHA-256. subscriber_id is set while the address is listed; when it
  // leaves, the row above goes and its tokens keep only why (so a later click answers 410 or "unsubscribed").
  await createTableOnce(knex, 'dinner_price_tokens', (t) => {
    hashKeyColumn(t, 'token_hash');
    t.string('purpose', 16).notNullable();
    optionalRefColumn(t, 'subscriber_id', 'dinner_price_subscribers');
    instants(t, 'issued_at');
    t.string('exit', 16).nullable();
    optionalInstants(t, 'left_at');
    t.index(['subscriber_id']);
    t.index(['left_at']);
  });
}
