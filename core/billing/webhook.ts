import type { BillingEventDecoder } from '../../ports/billing-events.js';
import type { BillingStore } from '../../ports/billing-store.js';
import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { WebhookVerifier } from '../../ports/webhook-verifier.js';
import type { ErrorOf } from '../kernel/errors.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { applyChange, changeOf, householdPlanOf } from './subscriptions.js';
import type { BillingEvent, SubscriptionState } from './types.js';

export interface BillingDeps {
  billing: BillingStore;
  households: HouseholdStore;
  webhookVerifier: WebhookVerifier;
  billingEvents: BillingEventDecoder;
  clock: Clock;
}

/** Why a signed, well-formed event changed nothing; the provider is answered 200 all the same. */
export type IgnoredBecause = 'unknown-type' | 'no-subscription' | 'household-unknown';

export type WebhookOutcome =
  | { readonly kind: 'applied'; readonly event: BillingEvent; readonly subscription: SubscriptionState }
  | { readonly kind: 'replayed'; readonly event: BillingEvent }
  | { readonly kind: 'ignored'; readonly event: BillingEvent; readonly because: IgnoredBecause };

/**
 * One delivery of the billing webhook. The signature over the exact bytes is checked before anything else reads
 * them; a body that is signed but not an event of the provider's shape is refused the same way (the provider
 * shows the failure and retries, rather than an event being dropped unseen). Then the event is applied to its
 * subscription and the household's plan follows (see subscriptions.ts for why any order converges).
 */
export async function receiveBillingWebhook(
  deps: BillingDeps,
  delivery: { body: Uint8Array; signature: string | null },
): Promise<Result<WebhookOutcome, ErrorOf<'billing-webhook-rejected'>>> {
  const now = deps.clock.now();
  const check = deps.webhookVerifier.verify(delivery.body, delivery.signature, now);
  if (!check.ok) return fail({ type: 'billing-webhook-rejected', reason: check.reason });
  const event = deps.billingEvents(delivery.body);
  if (!event) return fail({ type: 'billing-webhook-rejected', reason: 'event-malformed' });

  if (event.type === 'other') return ok({ kind: 'ignored', event, because: 'unknown-type' });
  if (event.subscriptionId === null) return ok({ kind: 'ignored', event, because: 'no-subscription' });
  // A checkout for a household this service does not hold has nobody to upgrade.
  if (event.type === 'checkout.session.completed' && (event.householdId === null || !(await deps.households.byId(event.householdId)))) {
    return ok({ kind: 'ignored', event, because: 'household-unknown' });
  }
  const change = changeOf(event);
  if (!change) return ok({ kind: 'ignored', event, because: 'no-subscription' });

  const outcome = await deps.billing.apply(
    { id: event.id, type: event.type, created: event.created, receivedAt: now },
    change.subscriptionId,
    (current) => applyChange(current, change),
    householdPlanOf,
  );
  return outcome.replayed ? ok({ kind: 'replayed', event }) : ok({ kind: 'applied', event, subscription: outcome.subscription });
}
