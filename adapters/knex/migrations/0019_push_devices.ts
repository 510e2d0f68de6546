import type { Knex } from 'knex';
import { accountColumn, createTableOnce, householdColumn, idColumn, instants, optionalInstants, sendProgressColumns } from '../schema-kit.js';

export const name = '0019_push_devices';

export async function up(knex: Knex): Promise<void> {
  await createTableOnce(knex, 'push_devices', (t) => {
    // At most 2048 printable ASCII characters (checked before it gets here): small enough for a btree key.
    t.string('token', 2048).primary();
    // A device is the person's, not a household's: it goes with the login.
    accountColumn(t);
    t.string('platform', 16).notNullable();
    t.string('provider', 32).notNullable();
    t.boolean('list_changes').notNullable();
    t.boolean('household_news').notNullable();
    t.boolean('run_done').notNullable();
    t.boolean('reminders').notNullable();
    instants(t, 'created_at', 'last_seen_at');
    t.index(['account_id', 'token']);
  });
  // One row per message and device: the state of each send survives restarts, so a retry never resends to a
  // device that got it. A deleted device, login or household takes its deliveries along.
  await createTableOnce(knex, 'push_deliveries', (t) => {
    idColumn(t);
    householdColumn(t);
    accountColumn(t);
    t.string('token', 2048).notNullable().references('token').inTable('push_devices').onDelete('CASCADE');
    t.string('switch_name', 16).notNullable();
    t.text('message').notNullable(); // JSON: title, body, data, collapseKey
    sendProgressColumns(t);
    instants(t, 'created_at');
    optionalInstants(t, 'finished_at');
    t.index(['state', 'next_attempt_at']);
    t.index(['household_id', 'created_at']);
    t.index(['token']);
    t.index(['account_id']);
    t.index(['finished_at']);
  });
}
