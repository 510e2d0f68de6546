/**
 * Two events of one subscription made in the same second (the provider's clock ticks in seconds), and the state
 * they must leave whatever order they arrive in and whichever of their ids sorts first. Shared by the domain test
 * (memory) and the HTTP test (SQLite, Postgres), so that every pair is proven on every store.
 */
export type TieEvent =
  | { readonly kind: 'checkout' }
  | { readonly kind: 'updated'; readonly status: string }
  | { readonly kind: 'deleted' }
  | { readonly kind: 'failed' };

export interface TieCase {
  readonly name: string;
  /** Events a second or more before the pair, in order. */
  readonly before: readonly TieEvent[];
  readonly pair: readonly [TieEvent, TieEvent];
  /** The household's plan and the subscription's status and payment flag after all of them. */
  readonly expected: { readonly plan: 'Plus' | 'Free'; readonly status: string | null; readonly paymentFailing: boolean };
}

const checkout: TieEvent = { kind: 'checkout' };
const deleted: TieEvent = { kind: 'deleted' };
const failed: TieEvent = { kind: 'failed' };
const updated = (status: string): TieEvent => ({ kind: 'updated', status });

export const TIE_CASES: readonly TieCase[] = [
  // A deletion is terminal: it wins a tie against anything.
  { name: 'checkout and deletion', before: [], pair: [checkout, deleted], expected: { plan: 'Free', status: 'canceled', paymentFailing: false } },
  { name: 'update to active and deletion', before: [checkout], pair: [updated('active'), deleted], expected: { plan: 'Free', status: 'canceled', paymentFailing: false } },
  { name: 'update to past_due and deletion', before: [checkout, failed], pair: [updated('past_due'), deleted], expected: { plan: 'Free', status: 'canceled', paymentFailing: false } },
  { name: 'payment failure and deletion', before: [checkout], pair: [failed, deleted], expected: { plan: 'Free', status: 'canceled', paymentFailing: false } },
  // A checkout starts the subscription: an update of the same second comes after it.
  { name: 'checkout and update to canceled', before: [], pair: [checkout, updated('canceled')], expected: { plan: 'Free', status: 'canceled', paymentFailing: false } },
  { name: 'checkout and update to incomplete', before: [], pair: [checkout, updated('incomplete')], expected: { plan: 'Plus', status: 'incomplete', paymentFailing: false } },
  // A checkout completes only once paid, so a failure of the same second came before it.
  { name: 'payment failure and checkout', before: [], pair: [failed, checkout], expected: { plan: 'Plus', status: null, paymentFailing: false } },
  // A subscription paid up again (active) or ended came after the failure of the same second.
  { name: 'payment failure and update to active', before: [checkout], pair: [failed, updated('active')], expected: { plan: 'Plus', status: 'active', paymentFailing: false } },
  { name: 'payment failure and update to past_due', before: [checkout], pair: [failed, updated('past_due')], expected: { plan: 'Plus', status: 'past_due', paymentFailing: true } },
  // Two updates: the status further along a subscription's life wins (trialing, active, past_due, unpaid, canceled).
  { name: 'update to trialing and update to active', before: [checkout], pair: [updated('trialing'), updated('active')], expected: { plan: 'Plus', status: 'active', paymentFailing: false } },
  { name: 'update to active and update to past_due', before: [checkout], pair: [updated('active'), updated('past_due')], expected: { plan: 'Plus', status: 'past_due', paymentFailing: false } },
  { name: 'update to active and update to canceled', before: [checkout], pair: [updated('active'), updated('canceled')], expected: { plan: 'Free', status: 'canceled', paymentFailing: false } },
  { name: 'update to past_due and update to unpaid', before: [checkout, failed], pair: [updated('past_due'), updated('unpaid')], expected: { plan: 'Free', status: 'unpaid', paymentFailing: true } },
  { name: 'update to incomplete and update to incomplete_expired', before: [checkout], pair: [updated('incomplete'), updated('incomplete_expired')], expected: { plan: 'Free', status: 'incomplete_expired', paymentFailing: false } },
  // A status this service does not know yet comes before every status it knows.
  { name: 'update to an unknown status and update to active', before: [checkout], pair: [updated('someday_new'), updated('active')], expected: { plan: 'Plus', status: 'active', paymentFailing: false } },
];

export interface TieDelivery {
  /** What is told to the reader when a run fails. */
  readonly label: string;
  /** The events in delivery order, with their provider ids and created seconds. */
  readonly events: readonly { readonly event: TieEvent; readonly id: string; readonly created: number }[];
}

/**
 * The four deliveries of a case: the pair in both orders, each with the ids sorting both ways, after the events
 * before it (each a second earlier than the next). Every event has an id of its own (no delivery replays
 * another's), and `prefix` keeps ids apart between runs on one database.
 */
export function tieDeliveries(c: TieCase, t0: number, prefix: string): TieDelivery[] {
  const out: TieDelivery[] = [];
  for (const swapped of [false, true]) {
    for (const firstIdLow of [true, false]) {
      const before = c.before.map((event, i) => ({ event, id: `${prefix}_${swapped}_${firstIdLow}_before_${i}`, created: t0 - (c.before.length - i) }));
      const [a, b] = c.pair;
      const ids = firstIdLow ? ['evt_a', 'evt_b'] : ['evt_b', 'evt_a'];
      const pair = [
        { event: a, id: `${prefix}_${swapped}_${firstIdLow}_${ids[0]}`, created: t0 },
        { event: b, id: `${prefix}_${swapped}_${firstIdLow}_${ids[1]}`, created: t0 },
      ];
      out.push({
        label: `${c.name}: ${swapped ? 'second' : 'first'} of the pair delivered first, ${firstIdLow ? 'first' : 'second'} one's id sorting first`,
        events: [...before, ...(swapped ? [pair[1]!, pair[0]!] : pair)],
      });
    }
  }
  return out;
}

/** The provider's event body for one event of the case. */
export function providerEvent(e: { event: TieEvent; id: string; created: number }, subscriptionId: string, householdId: string): object {
  const envelope = (type: string, object: Record<string, unknown>) => ({ id: e.id, object: 'event', type, created: e.created, data: { object } });
  switch (e.event.kind) {
    case 'checkout':
      return envelope('checkout.session.completed', { id: `cs_${e.id}`, object: 'checkout.session', subscription: subscriptionId, metadata: { householdId } });
    case 'updated':
      return envelope('customer.subscription.updated', { id: subscriptionId, object: 'subscription', status: e.event.status });
    case 'deleted':
      return envelope('customer.subscription.deleted', { id: subscriptionId, object: 'subscription', status: 'canceled' });
    case 'failed':
      return envelope('invoice.payment_failed', { id: `in_${e.id}`, object: 'invoice', subscription: subscriptionId });
  }
}
