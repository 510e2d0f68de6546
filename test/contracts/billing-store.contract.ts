import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { applyChange, householdPlanOf } from '../../core/billing/subscriptions.js';
import type { BillingEventType, Stamp, SubscriptionChange, SubscriptionState } from '../../core/billing/types.js';
import type { Plan } from '../../core/households/types.js';
import type { AppliedEvent } from '../../ports/billing-store.js';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

async function household(s: Stores, plan: Plan = 'Free') {
  const { id } = await ownedHousehold(s, { plan });
  return id;
}

const eventId = () => `evt_${randomUUID().replace(/-/g, '')}`;
const subscriptionId = () => `sub_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
const event = (id = eventId(), created = at('2026-03-01T10:00:00.000Z')): AppliedEvent => ({
  id,
  type: 'customer.subscription.updated',
  created,
  receivedAt: at('2026-03-01T10:00:01.250Z'),
});

/** The event that wrote a part: by default an update to active (the type and status order events of one second). */
const stamp = (iso: string, id: string, type: BillingEventType = 'customer.subscription.updated', status: string | null = type === 'customer.subscription.updated' ? 'active' : null): Stamp => ({
  at: at(iso),
  eventId: id,
  type,
  status,
});

/** Every part set, dates with milliseconds, both booleans seen across the suite. */
const fullState = (sub: string, householdId: string | null, over: Partial<SubscriptionState> = {}): SubscriptionState => ({
  subscriptionId: sub,
  household: householdId === null ? null : { value: householdId, by: stamp('2026-03-01T09:00:00.000Z', 'evt_checkout', 'checkout.session.completed') },
  plan: { value: 'Plus', by: stamp('2026-03-01T09:30:00.123Z', 'evt_plan', 'customer.subscription.updated', 'active') },
  status: { value: 'past_due', by: stamp('2026-03-01T09:45:00.456Z', 'evt_status', 'customer.subscription.updated', 'past_due') },
  paymentFailing: { value: true, by: stamp('2026-03-01T09:50:00.789Z', 'evt_failed', 'invoice.payment_failed') },
  lastEvent: stamp('2026-03-01T09:50:00.789Z', 'evt_failed', 'invoice.payment_failed'),
  ...over,
});

export function billingStoreContract(backend: Backend): void {
  storeSuite(backend, 'BillingStore', (s) => {
    it('round-trips a subscription with every part, dates and booleans included', async () => {
      const h = await household(s);
      const sub = subscriptionId();
      const state = fullState(sub, h);
      const outcome = await s.billing.apply(event(), sub, (current) => (expect(current).to.equal(null), state), householdPlanOf);
      expect(outcome).to.deep.equal({ replayed: false, subscription: state });
      expect(await s.billing.subscription(sub)).to.deep.equal(state);
      expect(await s.billing.subscriptionsOf(h)).to.deep.equal([state]);
      const cleared = fullState(sub, h, { paymentFailing: { value: false, by: stamp('2026-03-02T00:00:00.001Z', 'evt_paid') } });
      await s.billing.apply(event(), sub, (current) => (expect(current).to.deep.equal(state), cleared), householdPlanOf);
      expect(await s.billing.subscription(sub)).to.deep.equal(cleared);
    });

    it('round-trips a subscription with no parts yet but the newest event, and no household', async () => {
      const sub = subscriptionId();
      const bare: SubscriptionState = { subscriptionId: sub, household: null, plan: null, status: null, paymentFailing: null, lastEvent: stamp('2026-03-01T10:00:00.000Z', 'evt_1') };
      await s.billing.apply(event(), sub, () => bare, householdPlanOf);
      expect(await s.billing.subscription(sub)).to.deep.equal(bare);
      expect(await s.billing.subscription(subscriptionId())).to.equal(null);
    });

    it('records the event id: a replay answers replayed and changes nothing', async () => {
      const h = await household(s);
      const sub = subscriptionId();
      const e = event();
      expect(await s.billing.applied(e.id)).to.equal(false);
      await s.billing.apply(e, sub, () => fullState(sub, h), householdPlanOf);
      expect(await s.billing.applied(e.id)).to.equal(true);
      let called = false;
      const again = await s.billing.apply({ ...e, receivedAt: at('2026-03-05T00:00:00.000Z') }, sub, () => {
        called = true;
        return fullState(sub, null, { plan: { value: 'Free', by: stamp('2026-04-01T00:00:00.000Z', 'evt_later') } });
      }, householdPlanOf);
      expect(again).to.deep.equal({ replayed: true });
      expect(called).to.equal(false);
      expect(await s.billing.subscription(sub)).to.deep.equal(fullState(sub, h));
      expect((await s.households.byId(h))!.plan).to.equal('Plus');
    });

    it("sets the household's plan from all of its subscriptions, and moves updatedAt only when it changes", async () => {
      const h = await household(s);
      const first = subscriptionId();
      const second = subscriptionId();
      let seen: readonly SubscriptionState[] = [];
      const planOf = (subs: readonly SubscriptionState[]) => ((seen = subs), householdPlanOf(subs));
      await s.billing.apply(event(), first, () => fullState(first, h), planOf);
      expect(seen.map((x) => x.subscriptionId)).to.deep.equal([first]);
      const upgraded = await s.households.byId(h);
      expect(upgraded!.plan).to.equal('Plus');
      expect(upgraded!.updatedAt).to.deep.equal(at('2026-03-01T10:00:01.250Z'));

      const freeState = (sub: string) => fullState(sub, h, { plan: { value: 'Free', by: stamp('2026-03-03T00:00:00.000Z', eventId()) } });
      await s.billing.apply({ ...event(), receivedAt: at('2026-03-03T00:00:05.000Z') }, second, () => freeState(second), planOf);
      expect(seen.map((x) => x.subscriptionId).sort()).to.deep.equal([first, second].sort());
      // The other subscription is still on Plus: so is the household, untouched.
      expect(await s.households.byId(h)).to.deep.equal(upgraded);

      await s.billing.apply({ ...event(), receivedAt: at('2026-03-04T00:00:00.000Z') }, first, () => freeState(first), planOf);
      const downgraded = await s.households.byId(h);
      expect(downgraded!.plan).to.equal('Free');
      expect(downgraded!.updatedAt).to.deep.equal(at('2026-03-04T00:00:00.000Z'));
      expect(await s.billing.subscriptionsOf(h)).to.have.length(2);
    });

    it('recomputes both households when a subscription moves, and leaves households without subscriptions alone', async () => {
      const a = await household(s);
      const b = await household(s);
      const bystander = await household(s, 'Plus');
      const sub = subscriptionId();
      await s.billing.apply(event(), sub, () => fullState(sub, a), householdPlanOf);
      const moved = fullState(sub, b, { household: { value: b, by: stamp('2026-03-02T00:00:00.000Z', 'evt_checkout_2', 'checkout.session.completed') } });
      await s.billing.apply(event(), sub, () => moved, householdPlanOf);
      expect((await s.households.byId(a))!.plan).to.equal('Free');
      expect((await s.households.byId(b))!.plan).to.equal('Plus');
      expect(await s.billing.subscriptionsOf(a)).to.deep.equal([]);
      expect(await s.billing.subscriptionsOf(b)).to.deep.equal([moved]);
      expect((await s.households.byId(bystander))!.plan).to.equal('Plus');
    });

    it('does not store a link to a household that does not exist, keeping the rest of the state', async () => {
      const h = await household(s);
      const sub = subscriptionId();
      const ghost = randomUUID();
      const result = await s.billing.apply(event(), sub, () => fullState(sub, ghost), householdPlanOf);
      const expected = fullState(sub, null);
      expect(result).to.deep.equal({ replayed: false, subscription: expected });
      expect(await s.billing.subscription(sub)).to.deep.equal(expected);
      // Once linked, a later link to a missing household keeps the one there is.
      await s.billing.apply(event(), sub, () => fullState(sub, h), householdPlanOf);
      const relink = fullState(sub, ghost, { household: { value: ghost, by: stamp('2026-04-01T00:00:00.000Z', 'evt_x', 'checkout.session.completed') } });
      await s.billing.apply(event(), sub, () => relink, householdPlanOf);
      expect((await s.billing.subscription(sub))!.household).to.deep.equal(fullState(sub, h).household);
    });

    it('scopes subscriptionsOf by household and drops the subscriptions with their household', async () => {
      const h = await household(s);
      const other = await household(s);
      const sub = subscriptionId();
      const e = event();
      await s.billing.apply(e, sub, () => fullState(sub, h), householdPlanOf);
      expect(await s.billing.subscriptionsOf(other)).to.deep.equal([]);
      await s.households.delete(h);
      expect(await s.billing.subscriptionsOf(h)).to.deep.equal([]);
      expect(await s.billing.subscription(sub)).to.equal(null);
      // The event stays applied: a late replay still changes nothing.
      expect(await s.billing.applied(e.id)).to.equal(true);
    });

    it('applies concurrent deliveries one after the other: the same event once, different events all', async () => {
      const h = await household(s);
      const sub = subscriptionId();
      const changes: SubscriptionChange[] = Array.from({ length: 6 }, (_, i) => ({
        subscriptionId: sub,
        by: stamp(`2026-03-01T10:00:0${i}.000Z`, `evt_${i}`, i === 0 ? 'checkout.session.completed' : 'customer.subscription.updated', i === 0 ? null : `status_${i}`),
        ...(i === 0 ? { household: h, plan: 'Plus' as const } : { status: `status_${i}` }),
        ...(i === 3 ? { paymentFailing: true } : {}),
      }));
      const apply = (c: SubscriptionChange) => s.billing.apply(event(c.by.eventId, c.by.at), sub, (cur) => applyChange(cur, c), householdPlanOf);
      const outcomes = await Promise.all([...changes, ...changes].reverse().map(apply));
      expect(outcomes.filter((o) => o.replayed)).to.have.length(changes.length);
      const expected = changes.reduce<SubscriptionState | null>((state, c) => applyChange(state, c), null);
      expect(await s.billing.subscription(sub)).to.deep.equal(expected);
      expect((await s.households.byId(h))!.plan).to.equal('Plus');
    });
  });
}
