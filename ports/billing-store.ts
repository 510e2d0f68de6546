import type { SubscriptionState } from '../core/billing/types.js';
import type { Plan } from '../core/households/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';

/** A provider event the webhook applied: its id is what makes a replay recognisable. */
export interface AppliedEvent {
  readonly id: string;
  readonly type: string;
  readonly created: Date;
  readonly receivedAt: Date;
}

export type ApplyOutcome = { readonly replayed: true } | { readonly replayed: false; readonly subscription: SubscriptionState };

/** The payment provider's subscriptions as the webhook left them, and the ids of the events it applied. */
export interface BillingStore {
  /**
   * One delivery, in one transaction: records the event's id and, unless that id was recorded before (a replay,
   * which changes nothing), stores `next(current)` as the subscription's state and sets the plan of each household
   * the subscription was or now is linked to, to `planOf(that household's subscriptions)`. A link to a household
   * that does not exist (any more) is not stored. Deliveries of the same subscription or household never interleave.
   */
  apply(
    event: AppliedEvent,
    subscriptionId: string,
    next: (current: SubscriptionState | null) => SubscriptionState,
    planOf: (subscriptions: readonly SubscriptionState[]) => Plan,
  ): Promise<ApplyOutcome>;
  subscription(subscriptionId: string): Promise<SubscriptionState | null>;
  /** The subscriptions a household bought, by subscription id. */
  subscriptionsOf(householdId: HouseholdId): Promise<SubscriptionState[]>;
  /** Whether an event of this id was applied. */
  applied(eventId: string): Promise<boolean>;
}
