import type { Plan } from '../households/types.js';
import {
  FREE_STATUSES,
  PLUS_STATUSES,
  SETTLED_STATUSES,
  type BillingEvent,
  type Stamp,
  type Stamped,
  type SubscriptionChange,
  type SubscriptionState,
} from './types.js';

/**
 * Statuses in the order a subscription passes through them (a trial, then paid, then owing, then ended), for two
 * updates of the same second. Going back (past_due to active once paid) is rarer within one second than going on,
 * and the terminal statuses come last, so a tie never leaves a subscription live that the provider ended. A status
 * this list does not know comes before all of them.
 */
const STATUSES_IN_LIFE_ORDER: readonly string[] = ['incomplete', 'trialing', 'paused', 'active', 'past_due', 'unpaid', 'incomplete_expired', 'canceled'];

/**
 * Where an event falls in its subscription's life, for events of the same second. A payment failure comes first:
 * a checkout completes only once paid, and a subscription becomes active again only after a payment went through.
 * A checkout starts the subscription, so its updates come after it. A deletion is terminal and comes last.
 */
function placeInLife(s: Stamp): number {
  const status = STATUSES_IN_LIFE_ORDER.indexOf(s.status ?? '') + 1;
  switch (s.type) {
    case 'invoice.payment_failed':
      return 0;
    case 'checkout.session.completed':
      return 1;
    case 'customer.subscription.updated':
      return 2 + status;
    case 'customer.subscription.deleted':
      return 2 + STATUSES_IN_LIFE_ORDER.length + 1 + status;
  }
}

/**
 * Events in the order they happened at the provider: by created, then (the provider's clock ticks in seconds) by
 * their place in the subscription's life. Only events of the same type and status are left to their ids, and
 * those write the same values (a subscription is bought by one checkout), so no outcome depends on the order of
 * the provider's random ids.
 */
export function compareStamps(a: Stamp, b: Stamp): number {
  const d = a.at.getTime() - b.at.getTime();
  if (d !== 0) return d;
  const place = placeInLife(a) - placeInLife(b);
  if (place !== 0) return place;
  return a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0;
}

/**
 * What an event says about its subscription, or null when it names none. The household
 * of a checkout is passed in by the caller once it knows the household exists.
 */
export function changeOf(event: BillingEvent): SubscriptionChange | null {
  if (event.type === 'other') return null;
  const status = event.type === 'customer.subscription.updated' ? event.status : event.type === 'customer.subscription.deleted' ? (event.status ?? 'canceled') : null;
  const by: Stamp = { at: event.created, eventId: event.id, type: event.type, status };
  switch (event.type) {
    case 'checkout.session.completed':
      // A paid checkout starts the subscription on Plus with nothing owed.
      if (event.subscriptionId === null || event.householdId === null) return null;
      return { subscriptionId: event.subscriptionId, by, household: event.householdId, plan: 'Plus', paymentFailing: false };
    case 'customer.subscription.updated': {
      const plan: Plan | undefined = PLUS_STATUSES.includes(event.status) ? 'Plus' : FREE_STATUSES.includes(event.status) ? 'Free' : undefined;
      return {
        subscriptionId: event.subscriptionId,
        by,
        status: event.status,
        ...(plan ? { plan } : {}),
        // past_due, unpaid and the statuses this service does not know keep the flag as it is.
        ...(SETTLED_STATUSES.includes(event.status) ? { paymentFailing: false } : {}),
      };
    }
    case 'customer.subscription.deleted':
      return { subscriptionId: event.subscriptionId, by, plan: 'Free', status: event.status ?? 'canceled', paymentFailing: false };
    case 'invoice.payment_failed':
      return event.subscriptionId === null ? null : { subscriptionId: event.subscriptionId, by, paymentFailing: true };
  }
}

/**
 * The subscription after one more event: each part the event speaks of takes its value when the event is newer
 * than the one that wrote the part. Every part is a last-writer-wins register over the events' own order, so any
 * delivery order, with any replays, ends in the same state.
 */
export function applyChange(current: SubscriptionState | null, change: SubscriptionChange): SubscriptionState {
  const take = <T>(part: Stamped<T> | null, value: T | undefined): Stamped<T> | null =>
    value === undefined || (part !== null && compareStamps(change.by, part.by) <= 0) ? part : { value, by: change.by };
  return {
    subscriptionId: change.subscriptionId,
    household: take(current?.household ?? null, change.household),
    plan: take(current?.plan ?? null, change.plan),
    status: take(current?.status ?? null, change.status),
    paymentFailing: take(current?.paymentFailing ?? null, change.paymentFailing),
    lastEvent: current && compareStamps(current.lastEvent, change.by) >= 0 ? current.lastEvent : change.by,
  };
}

/** A household is on Plus while any subscription it bought is on Plus. */
export function householdPlanOf(subscriptions: readonly SubscriptionState[]): Plan {
  return subscriptions.some((s) => s.plan?.value === 'Plus') ? 'Plus' : 'Free';
}
