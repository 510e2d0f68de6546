import * as v from 'valibot';
import type { BillingEvent } from '../../core/billing/types.js';
import type { BillingEventDecoder } from '../../ports/billing-events.js';

/**
 * The payment provider's event format, as POST /api/v1/billing/webhook receives it: `{ id, type, created, data: { object } }`.
 * Fields this service does not read are allowed and ignored; the schemas also document the webhook's body.
 */
const ProviderId = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(255, 'at most 255 characters'));
/** Unix seconds, up to the end of year 9999. */
const Created = v.pipe(v.number(), v.integer('whole seconds'), v.minValue(0), v.maxValue(253_402_300_799));
const Status = v.pipe(v.string(), v.maxLength(64, 'at most 64 characters'));
const envelope = <T extends string, O extends v.GenericSchema>(type: v.GenericSchema<unknown, T>, object: O) =>
  v.looseObject({ id: ProviderId, type, created: Created, data: v.looseObject({ object }) });

const CheckoutSession = v.looseObject({
  subscription: v.optional(v.nullable(ProviderId), null),
  metadata: v.optional(v.nullable(v.looseObject({ householdId: v.optional(v.nullable(v.string()), null) })), null),
});
const Subscription = v.looseObject({ id: ProviderId, status: v.pipe(Status, v.minLength(1, 'must not be empty')) });
const DeletedSubscription = v.looseObject({ id: ProviderId, status: v.optional(v.nullable(Status), null) });
const Invoice = v.looseObject({ subscription: v.optional(v.nullable(ProviderId), null) });

const Envelope = envelope(v.pipe(v.string(), v.minLength(1), v.maxLength(255)), v.looseObject({}));
const Checkout = envelope(v.literal('checkout.session.completed'), CheckoutSession);
const Updated = envelope(v.literal('customer.subscription.updated'), Subscription);
const Deleted = envelope(v.literal('customer.subscription.deleted'), DeletedSubscription);
const PaymentFailed = envelope(v.literal('invoice.payment_failed'), Invoice);

/** For the OpenAPI document: the four event types read, or any other (answered 200 and ignored). */
export const ProviderEventBody = v.union([Checkout, Updated, Deleted, PaymentFailed, Envelope]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a signed body; null when it is not JSON text or not an event of the shapes above. */
export const decodeProviderEvent: BillingEventDecoder = (body) => {
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(body));
  } catch {
    return null;
  }
  const head = v.safeParse(Envelope, json);
  if (!head.success) return null;
  const base = { id: head.output.id, created: new Date(head.output.created * 1000) };
  switch (head.output.type) {
    case 'checkout.session.completed': {
      const e = v.safeParse(Checkout, json);
      if (!e.success) return null;
      const { subscription, metadata } = e.output.data.object;
      // A household id that is no UUID names no household here: the event is then ignored, as for an unknown one.
      const householdId = metadata?.householdId && UUID.test(metadata.householdId) ? metadata.householdId.toLowerCase() : null;
      return { ...base, type: 'checkout.session.completed', subscriptionId: subscription, householdId };
    }
    case 'customer.subscription.updated': {
      const e = v.safeParse(Updated, json);
      return e.success ? { ...base, type: 'customer.subscription.updated', subscriptionId: e.output.data.object.id, status: e.output.data.object.status } : null;
    }
    case 'customer.subscription.deleted': {
      const e = v.safeParse(Deleted, json);
      return e.success ? { ...base, type: 'customer.subscription.deleted', subscriptionId: e.output.data.object.id, status: e.output.data.object.status || null } : null;
    }
    case 'invoice.payment_failed': {
      const e = v.safeParse(PaymentFailed, json);
      return e.success ? { ...base, type: 'invoice.payment_failed', subscriptionId: e.output.data.object.subscription } : null;
    }
    default:
      return { ...base, type: 'other', providerType: head.output.type } satisfies BillingEvent;
  }
};
