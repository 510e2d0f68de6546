import type { Knex } from 'knex';

export const name = '0022_dinner_price_subscribers';

export async function up(knex: Knex): Promise<void> {
  // The dinner-price list: one row per address, deleted (not marked) when it leaves.
  if (!(await knex.schema.hasTable('dinner_price_subscribers'))) {
    await knex.schema.createTable('dinner_price_subscribers', (t) => {
      t.uuid('id').primary();
      // Normalized (trimmed, lower-case): concurrent first subscribes of one address meet here.
      t.string('email', 254).notNullable().unique();
      t.string('language', 8).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('confirmed_at', { useTz: true }).nullable();
      t.timestamp('last_mailed_at', { useTz: true }).notNullable();
      // The hourly purge of unconfirmed rows.
      t.index(['confirmed_at', 'created_at']);
    });
  }
  // The tokens of the mail links, only as their SHA-256. subscriber_id is set while the address is listed; when it
  // leaves, the row above goes and its tokens keep only why (so a later click answers 410 or "unsubscribed").
  if (!(await knex.schema.hasTable('dinner_price_tokens'))) {
    await knex.schema.createTable('dinner_price_tokens', (t) => {
      t.string('token_hash', 64).primary();
      t.string('purpose', 16).notNullable();
      t.uuid('subscriber_id').nullable().references('id').inTable('dinner_price_subscribers').onDelete('SET NULL');
      t.timestamp('issued_at', { useTz: true }).notNullable();
      t.string('exit', 16).nullable();
      t.timestamp('left_at', { useTz: true }).nullable();
      t.index(['subscriber_id']);
      t.index(['left_at']);
    });
  }
}
