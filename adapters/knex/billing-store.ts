import type { Knex } from 'knex';
import { BILLING_EVENT_TYPES, type BillingEventType, type Stamp, type Stamped, type SubscriptionState } from '../../core/billing/types.js';
import type { Plan } from '../../core/households/types.js';
import type { BillingStore } from '../../ports/billing-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { iso, toBool, toDate } from './rows.js';

interface SubscriptionRow {
  subscription_id: string;
  household_id: string | null;
  household_at: Date | string | null;
  household_event: string | null;
  household_event_type: string | null;
  household_event_status: string | null;
  plan: string | null;
  plan_at: Date | string | null;
  plan_event: string | null;
  plan_event_type: string | null;
  plan_event_status: string | null;
  status: string | null;
  status_at: Date | string | null;
  status_event: string | null;
  status_event_type: string | null;
  status_event_status: string | null;
  payment_failing: boolean | number | null;
  payment_failing_at: Date | string | null;
  payment_failing_event: string | null;
  payment_failing_event_type: string | null;
  payment_failing_event_status: string | null;
  last_event_at: Date | string;
  last_event: string;
  last_event_type: string | null;
  last_event_status: string | null;
  updated_at: Date | string;
}

/** A stamp's event type as stored; every stamp is written by one of the four (0030 filled in the older rows). */
function eventType(type: string | null, subscriptionId: string): BillingEventType {
  const known = BILLING_EVENT_TYPES.find((t) => t === type);
  if (!known) throw new Error(`billing subscription ${subscriptionId} holds a stamp of unknown event type ${String(type)}`);
  return known;
}

const stampOf = (r: SubscriptionRow, at: Date | string, eventId: string, type: string | null, status: string | null): Stamp => ({
  at: toDate(at),
  eventId,
  type: eventType(type, r.subscription_id),
  status,
});

/** A part from its value column and the four columns of the event that wrote it (`<prefix>_at`, `_event`, `_event_type`, `_event_status`). */
function stamped<T>(r: SubscriptionRow, value: T | null, prefix: 'household' | 'plan' | 'status' | 'payment_failing'): Stamped<T> | null {
  const at = r[`${prefix}_at`];
  const eventId = r[`${prefix}_event`];
  if (value === null || at === null || eventId === null) return null;
  return { value, by: stampOf(r, at, eventId, r[`${prefix}_event_type`], r[`${prefix}_event_status`]) };
}

const toState = (r: SubscriptionRow): SubscriptionState => ({
  subscriptionId: r.subscription_id,
  household: stamped(r, r.household_id, 'household'),
  plan: stamped(r, r.plan as Plan | null, 'plan'),
  status: stamped(r, r.status, 'status'),
  paymentFailing: stamped(r, r.payment_failing === null ? null : toBool(r.payment_failing), 'payment_failing'),
  lastEvent: stampOf(r, r.last_event_at, r.last_event, r.last_event_type, r.last_event_status),
});

/** A part's value column and the columns of the event that wrote it. */
const part = <T>(valueColumn: string, prefix: string, p: Stamped<T> | null): Record<string, unknown> => ({
  [valueColumn]: p?.value ?? null,
  [`${prefix}_at`]: p ? iso(p.by.at) : null,
  [`${prefix}_event`]: p?.by.eventId ?? null,
  [`${prefix}_event_type`]: p?.by.type ?? null,
  [`${prefix}_event_status`]: p?.by.status ?? null,
});

const rowOf = (s: SubscriptionState, at: Date): Record<string, unknown> => ({
  subscription_id: s.subscriptionId,
  ...part('household_id', 'household', s.household),
  ...part('plan', 'plan', s.plan),
  ...part('status', 'status', s.status),
  ...part('payment_failing', 'payment_failing', s.paymentFailing),
  last_event_at: iso(s.lastEvent.at),
  last_event: s.lastEvent.eventId,
  last_event_type: s.lastEvent.type,
  last_event_status: s.lastEvent.status,
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

