import type { Knex } from 'knex';

export const name = '0019_push_devices';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('push_devices'))) {
    await knex.schema.createTable('push_devices', (t) => {
      // At most 2048 printable ASCII characters (checked before it gets here): small enough for a btree key.
      t.string('token', 2048).primary();
      // A device is the person's, not a household's: it goes with the login.
      t.uuid('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.string('platform', 16).notNullable();
      t.string('provider', 32).notNullable();
      t.boolean('list_changes').notNullable();
      t.boolean('household_news').notNullable();
      t.boolean('run_done').notNullable();
      t.boolean('reminders').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('last_seen_at', { useTz: true }).notNullable();
      t.index(['account_id', 'token']);
    });
  }
  if (!(await knex.schema.hasTable('push_deliveries'))) {
    // One row per message and device: the state of each send survives restarts, so a retry never resends to a
    // device that got it. A deleted device, login or household takes its deliveries along.
    await knex.schema.createTable('push_deliveries', (t) => {
      t.uuid('id').primary();
      t.uuid('household_id').notNullable().references('id').inTable('households').onDelete('CASCADE');
      t.uuid('account_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
      t.string('token', 2048).notNullable().references('token').inTable('push_devices').onDelete('CASCADE');
      t.string('switch_name', 16).notNullable();
      t.text('message').notNullable(); // JSON: title, body, data, collapseKey
      t.string('state', 8).notNullable(); // pending, sent, failed, dropped
      t.integer('attempts').notNullable();
      t.timestamp('next_attempt_at', { useTz: true }).notNullable();
      // A worker's claim: others leave the row alone until claimed_until has passed.
      t.uuid('claim_id').nullable();
      t.timestamp('claimed_until', { useTz: true }).nullable();
      t.text('last_error').nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('finished_at', { useTz: true }).nullable();
      t.index(['state', 'next_attempt_at']);
      t.index(['household_id', 'created_at']);
      t.index(['token']);
      t.index(['account_id']);
      t.index(['finished_at']);
    });
  }
}
