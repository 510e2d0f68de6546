import type { Knex } from 'knex';
import { createTableOnce, instants, optionalInstants, optionalRefColumn } from '../schema-kit.js';

export const name = '0023_billing';

export async function up(knex: Knex): Promise<void> {
  // The id of every billing event applied: a replay finds its id here and changes nothing.
  await createTableOnce(knex, 'billing_events', (t) => {
    t.string('id', 255).primary();
    t.string('type', 255).notNullable();
    instants(t, 'created_at'); // the provider's clock
    t.string('subscription_id', 255).notNullable();
    instants(t, 'received_at');
  });
  // One row per subscription of the provider. Each part (household link, plan, status, payment flag) keeps the
  // event that wrote it (created, id): an event writes a part only when newer, so delivery order does not matter.
  // household_id stays null while only events other than the checkout have come.
  await createTableOnce(knex, 'billing_subscriptions', (t) => {
    t.string('subscription_id', 255).primary();
    optionalRefColumn(t, 'household_id', 'households', 'CASCADE');
    optionalInstants(t, 'household_at');
    t.string('household_event', 255).nullable();
    t.string('plan', 16).nullable();
    optionalInstants(t, 'plan_at');
    t.string('plan_event', 255).nullable();
    t.string('status', 64).nullable();
    optionalInstants(t, 'status_at');
    t.string('status_event', 255).nullable();
    t.boolean('payment_failing').nullable();
    optionalInstants(t, 'payment_failing_at');
    t.string('payment_failing_event', 255).nullable();
    instants(t, 'last_event_at');
    t.string('last_event', 255).notNullable();
    instants(t, 'updated_at');
    t.index(['household_id']);
  });
}
