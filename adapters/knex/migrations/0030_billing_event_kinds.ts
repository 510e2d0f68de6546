import type { Knex } from 'knex';

export const name = '0030_billing_event_kinds';

/** Each stamp of a subscription row: the column of its event id, and the prefix of its two new columns. */
const STAMPS = [
  { id: 'household_event', prefix: 'household_event' },
  { id: 'plan_event', prefix: 'plan_event' },
  { id: 'status_event', prefix: 'status_event' },
  { id: 'payment_failing_event', prefix: 'payment_failing_event' },
  { id: 'last_event', prefix: 'last_event' },
] as const;

/**
 * Events of one subscription made in the same second are ordered by their type and the status they carried, not
 * by their random ids (core/billing/subscriptions.ts > compareStamps), so each event that wrote a part of a
 * subscription keeps its type and status beside its created time and id.
 *
 * Rows written before: the type comes from billing_events, which holds every applied event and is never pruned.
 * The status of an update or a deletion is known only for the event that also wrote the status part; elsewhere
 * it stays null, which orders that event before updates of a known status in the same second.
 */
export async function up(knex: Knex): Promise<void> {
  for (const s of STAMPS) {
    if (await knex.schema.hasColumn('billing_subscriptions', `${s.prefix}_type`)) continue;
    await knex.schema.alterTable('billing_subscriptions', (t) => {
      t.string(`${s.prefix}_type`, 64).nullable();
      t.string(`${s.prefix}_status`, 64).nullable();
    });
    await knex('billing_subscriptions').update({
      [`${s.prefix}_type`]: knex('billing_events').select('type').where('billing_events.id', knex.ref(`billing_subscriptions.${s.id}`)),
    });
    await knex('billing_subscriptions')
      .whereIn(`${s.prefix}_type`, ['customer.subscription.updated', 'customer.subscription.deleted'])
      .whereRaw('?? = ??', [s.id, 'status_event'])
      .update({ [`${s.prefix}_status`]: knex.ref('status') });
  }
}
