import type { Knex } from 'knex';
import type { Stamped, SubscriptionState } from '../../core/billing/types.js';
import type { Plan } from '../../core/households/types.js';
import type { BillingStore } from '../../ports/billing-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { iso, toBool, toDate } from './rows.js';

interface SubscriptionRow {
  subscription_id: string;
  household_id: string | null;
  household_at: Date | string | null;
  household_event: string | null;
  plan: string | null;
  plan_at: Date | string | null;
  plan_event: string | null;
  status: string | null;
  status_at: Date | string | null;
  status_event: string | null;
  payment_failing: boolean | number | null;
  payment_failing_at: Date | string | null;
  payment_failing_event: string | null;
  last_event_at: Date | string;
  last_event: string;
  updated_at: Date | string;
}

const stamped = <T>(value: T | null, at: Date | string | null, eventId: string | null): Stamped<T> | null =>
  value === null || at === null || eventId === null ? null : { value, by: { at: toDate(at), eventId } };

const toState = (r: SubscriptionRow): SubscriptionState => ({
  subscriptionId: r.subscription_id,
  household: stamped(r.household_id, r.household_at, r.household_event),
  plan: stamped(r.plan as Plan | null, r.plan_at, r.plan_event),
  status: stamped(r.status, r.status_at, r.status_event),
  paymentFailing: stamped(r.payment_failing === null ? null : toBool(r.payment_failing), r.payment_failing_at, r.payment_failing_event),
  lastEvent: { at: toDate(r.last_event_at), eventId: r.last_event },
});

/** A part's value column and the columns of the event that wrote it. */
const part = <T>(valueColumn: string, prefix: string, p: Stamped<T> | null): Record<string, unknown> => ({
  [valueColumn]: p?.value ?? null,
  [`${prefix}_at`]: p ? iso(p.by.at) : null,
  [`${prefix}_event`]: p?.by.eventId ?? null,
});

const rowOf = (s: SubscriptionState, at: Date): Record<string, unknown> => ({
  subscription_id: s.subscriptionId,
  ...part('household_id', 'household', s.household),
  ...part('plan', 'plan', s.plan),
  ...part('status', 'status', s.status),
  ...part('payment_failing', 'payment_failing', s.paymentFailing),
  last_event_at: iso(s.lastEvent.at),
  last_event: s.lastEvent.eventId,
  updated_at: iso(at),
});

export function knexBillingStore(knex: Knex): BillingStore {
  const postgres = knex.client.config.client === 'pg';
  const locked = <T extends object>(q: Knex.QueryBuilder<T>) => (postgres ? q.forUpdate() : q);

  const applyOnce: BillingStore['apply'] = (event, subscriptionId, next, planOf) =>
    knex.transaction(async (trx) => {
      // A concurrent delivery of the same event waits here for the first to commit, then finds its id taken.
      const recorded = await trx('billing_events')
        .insert({ id: event.id, type: event.type, created_at: iso(event.created), subscription_id: subscriptionId, received_at: iso(event.receivedAt) })
        .onConflict('id')
        .ignore()
        .returning('id');
      if ((recorded as unknown[]).length === 0) return { replayed: true as const };

      const row = (await locked(trx<SubscriptionRow>('billing_subscriptions').where({ subscription_id: subscriptionId })).first()) as SubscriptionRow | undefined;
      const current = row ? toState(row) : null;
      let state = next(current);
      const before = current?.household?.value ?? null;
      const after = state.household?.value ?? null;
      if (after !== null && after !== before) {
        const exists = await locked(trx('households').where({ id: after }).select('id')).first();
        if (!exists) state = { ...state, household: current?.household ?? null };
      }
      if (row) await trx('billing_subscriptions').where({ subscription_id: subscriptionId }).update(rowOf(state, event.receivedAt));
      else await trx('billing_subscriptions').insert(rowOf(state, event.receivedAt));

      // The plan of each household the subscription leaves or joins follows all of that household's subscriptions.
      const households = [...new Set([before, state.household?.value ?? null].filter((h): h is string => h !== null))].sort();
      for (const householdId of households) {
        const household = (await locked(trx('households').where({ id: householdId }).select('plan')).first()) as { plan: string } | undefined;
        if (!household) continue;
        const subscriptions = ((await trx<SubscriptionRow>('billing_subscriptions').where({ household_id: householdId })) as SubscriptionRow[]).map(toState);
        const plan = planOf(subscriptions);
        if (plan !== household.plan) await trx('households').where({ id: householdId }).update({ plan, updated_at: iso(event.receivedAt) });
      }
      return { replayed: false as const, subscription: state };
    });

  return translated<BillingStore>(knex, {
    async apply(event, subscriptionId, next, planOf) {
      // Two first events of one subscription may both find no row and both insert it (Postgres): the loser's whole
      // transaction, event id included, is rolled back and runs again, now finding the winner's row.
      for (let attempt = 1; ; attempt++) {
        try {
          return await applyOnce(event, subscriptionId, next, planOf);
        } catch (err) {
          if (attempt >= 3 || !isUniqueViolation(err)) throw err;
        }
      }
    },
    async subscription(subscriptionId) {
      const row = (await knex<SubscriptionRow>('billing_subscriptions').where({ subscription_id: subscriptionId }).first()) as SubscriptionRow | undefined;
      return row ? toState(row) : null;
    },
    async subscriptionsOf(householdId) {
      const rows = (await knex<SubscriptionRow>('billing_subscriptions').where({ household_id: householdId }).orderBy('subscription_id')) as SubscriptionRow[];
      return rows.map(toState);
    },
    async applied(eventId) {
      return (await knex('billing_events').where({ id: eventId }).first('id')) !== undefined;
    },
  });
}

