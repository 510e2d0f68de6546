import * as v from 'valibot';
import { receiveBillingWebhook } from '../../../core/billing/webhook.js';
import { FREE_STATUSES, PLUS_STATUSES } from '../../../core/billing/types.js';
import type { Logger } from '../../../ports/logger.js';
import { ProviderEventBody } from '../../billing/provider-events.js';
import { SIGNATURE_TOLERANCE_SEC } from '../../crypto/webhook-signature.js';
import { JSON_BODY_LIMIT_BYTES } from '../app.js';
import { mount, resource, PUBLIC_PER_IP } from '../route.js';
import type { ServiceDeps } from '../deps.js';

const WebhookReceived = v.object({ status: v.picklist(['applied', 'replayed', 'ignored']) });

const { handledRoute } = resource<ServiceDeps & { readonly logger: Logger }>('Billing');

const RECEIVE_BILLING_WEBHOOK_DOC =
  [
  'Public, for the payment provider only: the proof is the header Provider-Signature over the raw body,',
  '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body bytes>">` keyed with BILLING_WEBHOOK_SECRET exactly as',
  'configured (`whsec_...` included). Several v1 values may be sent (secret rotation): one match is enough; each',
  `is compared in constant time. A t more than ${SIGNATURE_TOLERANCE_SEC} s from the server's clock, a missing or`,
  'malformed header, no matching v1, or no secret configured answer 400 billing_webhook_rejected before the body',
  'is decoded at all. Only a signed body is decoded: one that is not an event of the documented shape also',
  'answers 400 billing_webhook_rejected (the provider shows the failure and retries; nothing changes).',
  'Events are applied by their own created time, not by arrival: each part of a subscription (household, plan,',
  'status, payment failing) takes the value of the newest event that speaks of it, so an older event never',
  'overwrites a newer one, and replays (same event id: status replayed) and any delivery order end in the same',
  "state. The provider's created is whole seconds; events of one subscription made in the same second are ordered",
  'by their place in its life, never by their ids: invoice.payment_failed first (a checkout completes, and a',
  'subscription turns active again, only once paid), then checkout.session.completed (it starts the',
  'subscription), then customer.subscription.updated by status (one this service does not know, then incomplete,',
  'trialing, paused, active, past_due, unpaid, incomplete_expired, canceled), and customer.subscription.deleted',
  'last: a deletion is terminal and wins every tie, so the household ends on Free. checkout.session.completed links the subscription (data.object.subscription) to the household in',
  'data.object.metadata.householdId and puts it on Plus; a household this service does not hold, or a checkout',
  `without a subscription, is ignored (200, logged). customer.subscription.updated sets Plus for ${PLUS_STATUSES.join('/')}`,
  `and Free for ${FREE_STATUSES.join('/')}, and records any status (others keep the plan);`,
  'customer.subscription.deleted sets Free; invoice.payment_failed (data.object.subscription) marks the payment',
  'failing without changing the plan, until active, trialing, canceled or incomplete_expired, or the deletion,',
  'say otherwise. Subscription events that come before their checkout are kept and apply once it links them.',
  "A household is on Plus while any of its subscriptions is; Plus unlocks the household's referral codes (a",
  'household back on Free lists none, and its codes come back unchanged when it returns to Plus). Other event',
  `types answer 200 ignored. The body may be ${JSON_BODY_LIMIT_BYTES} bytes (1 MiB); any Content-Type is read as JSON.`,
      ].join(' ');

const receiveBillingWebhookRoute = handledRoute({
  method: 'POST',
  path: '/api/v1/billing/webhook',
  operationId: 'receiveBillingWebhook',
  summary: "The payment provider's event webhook",
  description: RECEIVE_BILLING_WEBHOOK_DOC,
  ...PUBLIC_PER_IP,
  rawBody: {
    description: 'A provider event, exactly as the provider signed it.',
    maxBytes: JSON_BODY_LIMIT_BYTES,
    schema: ProviderEventBody,
    headers: { 'Provider-Signature': 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">[,v1=...]' },
  },
  responses: { 200: { description: 'Received: applied, a replay of an applied event, or ignored', schema: WebhookReceived } },
  errors: ['billing-webhook-rejected'],
  handle: async (ctx, { deps, rawBody, refuse }) => {
    const result = await receiveBillingWebhook(deps, { body: rawBody, signature: ctx.get('Provider-Signature') || null });
    if (!result.ok) {
      deps.logger.warn('billing webhook rejected', { reason: result.error.reason });
      throw refuse(result.error);
    }
    const outcome = result.value;
    const fields = { eventId: outcome.event.id, type: outcome.event.type === 'other' ? outcome.event.providerType : outcome.event.type };
    if (outcome.kind === 'ignored') deps.logger[outcome.because === 'unknown-type' ? 'info' : 'warn']('billing event ignored', { ...fields, because: outcome.because });
    else if (outcome.kind === 'replayed') deps.logger.info('billing event replayed', fields);
    else deps.logger.info('billing event applied', { ...fields, subscriptionId: outcome.subscription.subscriptionId, plan: outcome.subscription.plan?.value ?? null });
    ctx.body = { status: outcome.kind };
  },
});

export const billingRoutes = (deps: ServiceDeps, logger: Logger) =>
  mount({ ...deps, logger }, [
    receiveBillingWebhookRoute,
  ]);

