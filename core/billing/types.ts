import type { Plan } from '../households/types.js';
import type { HouseholdId } from '../kernel/ids.js';

/**
 * The four event types the billing webhook (POST /api/v1/billing/webhook in the OpenAPI document) applies; any other
 * type is ignored.
 */
export const BILLING_EVENT_TYPES = [
  'checkout.session.completed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
] as const;
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number];

/** Subscription statuses that put the household on Plus, and those that put it back on Free; others keep the plan. */
export const PLUS_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];
export const FREE_STATUSES: readonly string[] = ['canceled', 'unpaid', 'incomplete_expired'];
/** Statuses after which nothing owed is failing: paid up again, or the subscription is over. */
export const SETTLED_STATUSES: readonly string[] = ['active', 'trialing', 'canceled', 'incomplete_expired'];

/** A provider event as the webhook understands it, after its signature was checked and its body decoded. */
interface EventBase {
  /** The provider's event id: replays carry the same one. */
  readonly id: string;
  /** When the provider made the event (its own clock, whole seconds): the order events are applied in. */
  readonly created: Date;
}
export type BillingEvent =
  | (EventBase & { readonly type: 'checkout.session.completed'; readonly subscriptionId: string | null; readonly householdId: HouseholdId | null })
  | (EventBase & { readonly type: 'customer.subscription.updated'; readonly subscriptionId: string; readonly status: string })
  | (EventBase & { readonly type: 'customer.subscription.deleted'; readonly subscriptionId: string; readonly status: string | null })
  | (EventBase & { readonly type: 'invoice.payment_failed'; readonly subscriptionId: string | null })
  | (EventBase & { readonly type: 'other'; readonly providerType: string });

/**
 * Which event last wrote a value. Events are ordered by `at` (the event's created, whole seconds); events of the
 * same second by their place in a subscription's life, told by their type and the status they carried
 * (subscriptions.ts > compareStamps); the id decides only between events of the same type and status, which
 * write the same values.
 */
export interface Stamp {
  readonly at: Date;
  readonly eventId: string;
  readonly type: BillingEventType;
  /** The subscription status the event carried (updated, deleted); null for a checkout or a payment failure. */
  readonly status: string | null;
}
export interface Stamped<T> {
  readonly value: T;
  readonly by: Stamp;
}

/**
 * What the service knows of one subscription of the provider. Each part carries the event that wrote it, and an
 * event writes a part only when it is newer than that event: so the state is the same whatever order the events
 * came in, and an event older than the last one that wrote a part leaves that part alone.
 */
export interface SubscriptionState {
  readonly subscriptionId: string;
  /** Set by the checkout that bought it; null while only other events of the subscription have come. */
  readonly household: Stamped<HouseholdId> | null;
  readonly plan: Stamped<Plan> | null;
  /** The provider's status text, as its last subscription event said. */
  readonly status: Stamped<string> | null;
  readonly paymentFailing: Stamped<boolean> | null;
  /** The newest event applied to this subscription. */
  readonly lastEvent: Stamp;
}

/** What one event says about its subscription; parts left out are not its business. */
export interface SubscriptionChange {
  readonly subscriptionId: string;
  readonly by: Stamp;
  readonly household?: HouseholdId;
  readonly plan?: Plan;
  readonly status?: string;
  readonly paymentFailing?: boolean;
}
