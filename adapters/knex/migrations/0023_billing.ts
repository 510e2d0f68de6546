import type { Knex } from 'knex';

export const name = '0023_billing';

export async function up(knex: Knex): Promise<void> {
  // The id of every billing event applied: a replay finds its id here and changes nothing.
  if (!(await knex.schema.hasTable('billing_events'))) {
    await knex.schema.createTable('billing_events', (t) => {
      t.string('id', 255).primary();
      t.string('type', 255).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable(); // the provider's clock
      t.string('subscription_id', 255).notNullable();
      t.timestamp('received_at', { useTz: true }).notNullable();
    });
  }
  // One row per subscription of the provider. Each part (household link, plan, status, payment flag) keeps the
  // event that wrote it (created, id): an event writes a part only when newer, so delivery order does not matter.
  // household_id stays null while only events other than the checkout have come.
  if (!(await knex.schema.hasTable('billing_subscriptions'))) {
    await knex.schema.createTable('billing_subscriptions', (t) => {
      t.string('subscription_id', 255).primary();
      t.uuid('household_id').nullable().references('id').inTable('households').onDelete('CASCADE');
      t.timestamp('household_at', { useTz: true }).nullable();
      t.string('household_event', 255).nullable();
      t.string('plan', 16).nullable();
      t.timestamp('plan_at', { useTz: true }).nullable();
      t.string('plan_event', 255).nullable();
      t.string('status', 64).nullable();
      t.timestamp('status_at', { useTz: true }).nullable();
      t.string('status_event', 255).nullable();
      t.boolean('payment_failing').nullable();
      t.timestamp('payment_failing_at', { useTz: true }).nullable();
      t.string('payment_failing_event', 255).nullable();
      t.timestamp('last_event_at', { useTz: true }).notNullable();
      t.string('last_event', 255).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['household_id']);
    });
  }
}
