import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { hmacWebhookVerifier, providerSignature } from '../../adapters/crypto/webhook-signature.js';
import { decodeProviderEvent } from '../../adapters/billing/provider-events.js';
import { memoryBillingStore } from '../../adapters/memory/billing-store.js';
import { emptyTables, memoryHouseholdStore } from '../../adapters/memory/stores.js';
import { receiveBillingWebhook, type BillingDeps } from '../../core/billing/webhook.js';
import { changeOf, compareStamps } from '../../core/billing/subscriptions.js';
import type { SubscriptionState } from '../../core/billing/types.js';
import { mulberry32 } from '../../core/kernel/seeded.js';
import { providerEvent, TIE_CASES, tieDeliveries } from '../support/billing-ties.js';
import { storedHousehold } from './support.js';

const SECRET = 'whsec_test';
const NOW = new Date('2026-05-04T09:00:00.000Z');
const T0 = NOW.getTime() / 1000;

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

type ProviderEvent = { id: string; object: 'event'; type: string; created: number; data: { object: Record<string, unknown> } };
let counter = 0;
const ev = (type: string, object: Record<string, unknown>, created: number, id = `evt_${String(++counter).padStart(6, '0')}`): ProviderEvent => ({
  id,
  object: 'event',
  type,
  created,
  data: { object },
});
const checkout = (sub: string | null, householdId: string | null, created = T0) =>
  ev('checkout.session.completed', { id: `cs_${randomUUID()}`, object: 'checkout.session', subscription: sub, metadata: householdId === null ? {} : { householdId } }, created);
const updated = (sub: string, status: string, created = T0, id?: string) => ev('customer.subscription.updated', { id: sub, object: 'subscription', status }, created, id);
const deleted = (sub: string, created = T0) => ev('customer.subscription.deleted', { id: sub, object: 'subscription', status: 'canceled' }, created);
const failed = (sub: string, created = T0) => ev('invoice.payment_failed', { id: `in_${randomUUID()}`, object: 'invoice', subscription: sub }, created);

function world(secret: string | null = SECRET) {
  const t = emptyTables();
  const clock = fixedClock(NOW);
  const deps: BillingDeps = {
    billing: memoryBillingStore(t),
    households: memoryHouseholdStore(t),
    webhookVerifier: hmacWebhookVerifier(secret),
    billingEvents: decodeProviderEvent,
    clock,
  };
  async function household() {
    return storedHousehold(deps.households, { id: randomUUID(), displayName: 'Kari' }, NOW);
  }
  const sign = (body: string, at = clock.now()) => {
    const ts = Math.floor(at.getTime() / 1000);
    return `t=${ts},v1=${providerSignature(SECRET, ts, body)}`;
  };
  const deliverRaw = (body: string, signature: string | null = sign(body)) => receiveBillingWebhook(deps, { body: Buffer.from(body, 'utf8'), signature });
  const deliver = (e: ProviderEvent) => deliverRaw(JSON.stringify(e));
  const planOf = async (h: string) => (await deps.households.byId(h))!.plan;
  return { deps, clock, household, sign, deliver, deliverRaw, planOf };
}

const kindOf = async (p: ReturnType<ReturnType<typeof world>['deliver']>) => {
  const r = await p;
  if (!r.ok) throw new Error(`rejected: ${r.error.reason}`);
  return r.value.kind;
};
const rejection = async (p: ReturnType<ReturnType<typeof world>['deliver']>) => {
  const r = await p;
  return r.ok ? `accepted (${r.value.kind})` : r.error.reason;
};

describe('billing webhook (domain)', () => {
  describe('Provider-Signature', () => {
    it('accepts a signature over the exact bytes with the secret string as the key', async () => {
      const w = world();
      const h = await w.household();
      expect(await kindOf(w.deliver(checkout('sub_1', h)))).to.equal('applied');
      expect(await w.planOf(h)).to.equal('Plus');
    });

    it('refuses a missing, malformed or foreign header, a tampered body and a wrong key, changing nothing', async () => {
      const w = world();
      const h = await w.household();
      const body = JSON.stringify(checkout('sub_1', h));
      const ts = Math.floor(w.clock.now().getTime() / 1000);
      expect(await rejection(w.deliverRaw(body, null))).to.equal('signature-missing');
      expect(await rejection(w.deliverRaw(body, ''))).to.equal('signature-missing');
      expect(await rejection(w.deliverRaw(body, `t=${ts}`))).to.equal('signature-missing');
      expect(await rejection(w.deliverRaw(body, 'garbage'))).to.equal('signature-malformed');
      expect(await rejection(w.deliverRaw(body, `v1=${providerSignature(SECRET, ts, body)}`))).to.equal('signature-malformed');
      expect(await rejection(w.deliverRaw(body, `t=soon,v1=${providerSignature(SECRET, ts, body)}`))).to.equal('signature-malformed');
      expect(await rejection(w.deliverRaw(body.replace('"sub_1"', '"sub_2"'), w.sign(body)))).to.equal('signature-mismatch');
      expect(await rejection(w.deliverRaw(body, `t=${ts},v1=${providerSignature('test', ts, body)}`))).to.equal('signature-mismatch');
      expect(await rejection(w.deliverRaw(body, `t=${ts + 1},v1=${providerSignature(SECRET, ts, body)}`))).to.equal('signature-mismatch');
      expect(await rejection(w.deliverRaw(body, `t=${ts},v1=${providerSignature(SECRET, ts, body).toUpperCase().slice(0, 63)}`))).to.equal('signature-missing');
      expect(await w.planOf(h)).to.equal('Free');
      expect(await w.deps.billing.subscription('sub_1')).to.equal(null);
    });

    it('accepts one matching v1 among several (secret rotation) and skips other schemes', async () => {
      const w = world();
      const h = await w.household();
      const body = JSON.stringify(checkout('sub_1', h));
      const ts = Math.floor(w.clock.now().getTime() / 1000);
      const good = providerSignature(SECRET, ts, body);
      const header = `t=${ts},v1=${providerSignature('whsec_old', ts, body)}, v0=abc,v1=${good}`;
      expect(await kindOf(w.deliverRaw(body, header))).to.equal('applied');
      expect(await rejection(w.deliverRaw(body, `t=${ts},v1=${'0'.repeat(64)},v1=${'f'.repeat(64)}`))).to.equal('signature-mismatch');
      // Two header lines (joined by the server with a comma) must name the same timestamp.
      expect(await rejection(w.deliverRaw(body, `t=${ts},v1=${good}, t=${ts - 1},v1=${good}`))).to.equal('signature-malformed');
    });

    it('refuses a timestamp more than 300 s from now, either way, and accepts one at 300 s', async () => {
      const w = world();
      const h = await w.household();
      const body = JSON.stringify(checkout('sub_1', h));
      const at = (offsetSec: number) => new Date(NOW.getTime() + offsetSec * 1000);
      expect(await rejection(w.deliverRaw(body, w.sign(body, at(-301))))).to.equal('timestamp-outside-tolerance');
      expect(await rejection(w.deliverRaw(body, w.sign(body, at(301))))).to.equal('timestamp-outside-tolerance');
      expect(await w.planOf(h)).to.equal('Free');
      expect(await kindOf(w.deliverRaw(body, w.sign(body, at(-300))))).to.equal('applied');
    });

    it('refuses everything while no secret is configured', async () => {
      for (const secret of [null, '']) {
        const w = world(secret);
        const h = await w.household();
        expect(await rejection(w.deliver(checkout('sub_1', h)))).to.equal('not-configured');
        expect(await w.planOf(h)).to.equal('Free');
      }
    });
  });

  describe('the event body', () => {
    it('refuses a signed body that is not JSON or not an event of the documented shape', async () => {
      const w = world();
      const h = await w.household();
      for (const body of [
        '',
        'not json',
        '[]',
        '{"id":"evt_1","type":"customer.subscription.updated"}',
        JSON.stringify({ ...updated('sub_1', 'active'), created: 'yesterday' }),
        JSON.stringify({ ...updated('sub_1', 'active'), created: 1.5 }),
        JSON.stringify(ev('customer.subscription.updated', { id: 'sub_1' }, T0)),
        JSON.stringify(ev('customer.subscription.deleted', { status: 'canceled' }, T0)),
        JSON.stringify(ev('checkout.session.completed', { subscription: 42, metadata: { householdId: h } }, T0)),
        JSON.stringify({ id: '', type: 'invoice.payment_failed', created: T0, data: { object: {} } }),
      ]) {
        expect(await rejection(w.deliverRaw(body)), body).to.equal('event-malformed');
      }
      const invalidUtf8 = Buffer.concat([Buffer.from('{"id":"evt_1","type":"x\u00e9'), Buffer.from([0xff]), Buffer.from('","created":1,"data":{"object":{}}}')]);
      const ts = Math.floor(NOW.getTime() / 1000);
      const header = `t=${ts},v1=${providerSignature(SECRET, ts, invalidUtf8)}`;
      const r = await receiveBillingWebhook(w.deps, { body: invalidUtf8, signature: header });
      expect(r.ok ? 'accepted' : r.error.reason).to.equal('event-malformed');
      expect(await w.planOf(h)).to.equal('Free');
    });

    it('answers other event types as ignored and stores nothing', async () => {
      const w = world();
      const e = ev('customer.created', { id: 'cus_1' }, T0);
      const r = await w.deliver(e);
      expect(r).to.deep.include({ ok: true });
      if (!r.ok) return;
      expect(r.value).to.deep.include({ kind: 'ignored', because: 'unknown-type' });
      expect(await w.deps.billing.applied(e.id)).to.equal(false);
    });
  });

  describe('the four events', () => {
    it('checkout puts the household on Plus and links the subscription', async () => {
      const w = world();
      const h = await w.household();
      const e = checkout('sub_1', h, T0 - 10);
      expect(await kindOf(w.deliver(e))).to.equal('applied');
      expect(await w.planOf(h)).to.equal('Plus');
      const by = { at: new Date((T0 - 10) * 1000), eventId: e.id, type: 'checkout.session.completed', status: null };
      expect(await w.deps.billing.subscriptionsOf(h)).to.deep.equal([
        { subscriptionId: 'sub_1', household: { value: h, by }, plan: { value: 'Plus', by }, status: null, paymentFailing: { value: false, by }, lastEvent: by },
      ]);
    });

    it('ignores a checkout for a household it does not hold, or without a subscription', async () => {
      const w = world();
      const h = await w.household();
      for (const [e, because] of [
        [checkout('sub_1', randomUUID()), 'household-unknown'],
        [checkout('sub_1', null), 'household-unknown'],
        [ev('checkout.session.completed', { subscription: 'sub_1', metadata: { householdId: 'not-a-uuid' } }, T0), 'household-unknown'],
        [checkout(null, h), 'no-subscription'],
        [ev('invoice.payment_failed', { subscription: null }, T0), 'no-subscription'],
      ] as const) {
        const r = await w.deliver(e);
        expect(r.ok && r.value.kind === 'ignored' && r.value.because).to.equal(because);
      }
      expect(await w.deps.billing.subscription('sub_1')).to.equal(null);
      expect(await w.planOf(h)).to.equal('Free');
    });

    it('subscription updated: Plus for active, trialing, past_due; Free for canceled, unpaid, incomplete_expired; others keep the plan', async () => {
      const settling: [string, 'Plus' | 'Free'][] = [
        ['active', 'Plus'],
        ['trialing', 'Plus'],
        ['past_due', 'Plus'],
        ['canceled', 'Free'],
        ['unpaid', 'Free'],
        ['incomplete_expired', 'Free'],
      ];
      // [status, the status before it, the plan after it]: a settling status decides the plan from either start;
      // any other keeps the plan the start gave.
      const cases: (readonly [string, string, 'Plus' | 'Free'])[] = [
        ...settling.flatMap(([status, plan]) => ['active', 'canceled'].map((start) => [status, start, plan] as const)),
        ...['incomplete', 'paused', 'something_new'].flatMap((status) => ([['active', 'Plus'], ['canceled', 'Free']] as const).map(([start, plan]) => [status, start, plan] as const)),
      ];
      for (const [status, start, plan] of cases) {
        const w = world();
        const h = await w.household();
        await w.deliver(checkout('sub_1', h, T0 - 100));
        await w.deliver(updated('sub_1', start, T0 - 50));
        await w.deliver(updated('sub_1', status, T0));
        expect(await w.planOf(h), `${start} → ${status}`).to.equal(plan);
        expect((await w.deps.billing.subscription('sub_1'))!.status!.value).to.equal(status);
      }
    });

    it('subscription deleted puts the household on Free', async () => {
      const w = world();
      const h = await w.household();
      await w.deliver(checkout('sub_1', h, T0 - 100));
      expect(await kindOf(w.deliver(deleted('sub_1', T0)))).to.equal('applied');
      expect(await w.planOf(h)).to.equal('Free');
      const s = (await w.deps.billing.subscription('sub_1'))!;
      expect([s.plan!.value, s.status!.value, s.paymentFailing!.value, s.household!.value]).to.deep.equal(['Free', 'canceled', false, h]);
    });

    it('payment failed marks the payment failing and keeps the plan, until the subscription is paid up again', async () => {
      const w = world();
      const h = await w.household();
      await w.deliver(checkout('sub_1', h, T0 - 100));
      await w.deliver(failed('sub_1', T0 - 50));
      let s = (await w.deps.billing.subscription('sub_1'))!;
      expect([s.plan!.value, s.paymentFailing!.value]).to.deep.equal(['Plus', true]);
      expect(await w.planOf(h)).to.equal('Plus');
      await w.deliver(updated('sub_1', 'past_due', T0 - 40));
      expect((await w.deps.billing.subscription('sub_1'))!.paymentFailing!.value).to.equal(true);
      await w.deliver(updated('sub_1', 'active', T0 - 30));
      s = (await w.deps.billing.subscription('sub_1'))!;
      expect([s.plan!.value, s.status!.value, s.paymentFailing!.value]).to.deep.equal(['Plus', 'active', false]);
    });

    it('keeps a household on Plus while any of its subscriptions is', async () => {
      const w = world();
      const h = await w.household();
      await w.deliver(checkout('sub_old', h, T0 - 100));
      await w.deliver(checkout('sub_new', h, T0 - 50));
      await w.deliver(deleted('sub_old', T0 - 10));
      expect(await w.planOf(h)).to.equal('Plus');
      await w.deliver(deleted('sub_new', T0));
      expect(await w.planOf(h)).to.equal('Free');
    });
  });

  describe('order and replays', () => {
    it('an event older than the last one that set the plan changes nothing', async () => {
      const w = world();
      const h = await w.household();
      await w.deliver(checkout('sub_1', h, T0 - 100));
      await w.deliver(deleted('sub_1', T0));
      expect(await kindOf(w.deliver(updated('sub_1', 'active', T0 - 10)))).to.equal('applied');
      expect(await w.planOf(h)).to.equal('Free');
      const s = (await w.deps.billing.subscription('sub_1'))!;
      expect([s.plan!.value, s.status!.value]).to.deep.equal(['Free', 'canceled']);
      expect(s.lastEvent.at).to.deep.equal(new Date(T0 * 1000));

      const v = world();
      const g = await v.household();
      await v.deliver(checkout('sub_1', g, T0 - 100));
      await v.deliver(updated('sub_1', 'active', T0));
      await v.deliver(updated('sub_1', 'canceled', T0 - 5));
      await v.deliver(failed('sub_1', T0 - 200));
      const t = (await v.deps.billing.subscription('sub_1'))!;
      expect([t.plan!.value, t.status!.value, t.paymentFailing!.value]).to.deep.equal(['Plus', 'active', false]);
      expect(await v.planOf(g)).to.equal('Plus');
    });

    describe('events of the same second: a rule for each pair, not their ids', () => {
      for (const c of TIE_CASES) {
        it(`${c.name}: ${c.expected.plan}, status ${c.expected.status}, payment failing ${c.expected.paymentFailing}`, async () => {
          for (const delivery of tieDeliveries(c, T0, 'evt')) {
            const w = world();
            const h = await w.household();
            for (const e of delivery.events) expect(await kindOf(w.deliver(providerEvent(e, 'sub_1', h) as ProviderEvent)), delivery.label).to.equal('applied');
            const s = (await w.deps.billing.subscription('sub_1'))!;
            expect({ plan: await w.planOf(h), status: s.status?.value ?? null, paymentFailing: s.paymentFailing?.value ?? false }, delivery.label).to.deep.equal(c.expected);
          }
        });
      }
    });

    it('a replay answers replayed and changes nothing, even after newer events', async () => {
      const w = world();
      const h = await w.household();
      const c = checkout('sub_1', h, T0 - 100);
      const d = deleted('sub_1', T0);
      expect(await kindOf(w.deliver(c))).to.equal('applied');
      expect(await kindOf(w.deliver(c))).to.equal('replayed');
      await w.deliver(d);
      const before = await w.deps.billing.subscription('sub_1');
      expect(await kindOf(w.deliver(c))).to.equal('replayed');
      expect(await kindOf(w.deliver(d))).to.equal('replayed');
      expect(await w.deps.billing.subscription('sub_1')).to.deep.equal(before);
      expect(await w.planOf(h)).to.equal('Free');
    });

    it('keeps the events of a subscription that come before its checkout, and applies them once it links', async () => {
      const w = world();
      const h = await w.household();
      await w.deliver(failed('sub_1', T0 - 10));
      await w.deliver(updated('sub_1', 'past_due', T0 - 20));
      const early = (await w.deps.billing.subscription('sub_1'))!;
      expect(early.household).to.equal(null);
      expect(await w.deps.billing.subscriptionsOf(h)).to.deep.equal([]);
      expect(await w.planOf(h)).to.equal('Free');
      await w.deliver(checkout('sub_1', h, T0 - 30));
      const s = (await w.deps.billing.subscription('sub_1'))!;
      expect([s.household!.value, s.plan!.value, s.status!.value, s.paymentFailing!.value]).to.deep.equal([h, 'Plus', 'past_due', true]);
      expect(await w.planOf(h)).to.equal('Plus');

      // A cancellation that came before its (older) checkout leaves the household on Free once linked.
      const v = world();
      const g = await v.household();
      await v.deliver(deleted('sub_2', T0));
      await v.deliver(checkout('sub_2', g, T0 - 30));
      expect(await v.planOf(g)).to.equal('Free');
      expect((await v.deps.billing.subscription('sub_2'))!.household!.value).to.equal(g);
    });
  });

  describe('convergence', () => {
    type Outcome = { plan: string; subscriptions: (SubscriptionState | null)[] };
    async function run(h: string, w: ReturnType<typeof world>, order: readonly ProviderEvent[], subs: readonly string[]): Promise<Outcome> {
      for (const e of order) {
        const r = await w.deliver(e);
        if (!r.ok) throw new Error(`rejected ${r.error.reason}`);
      }
      return { plan: await w.planOf(h), subscriptions: await Promise.all(subs.map((s) => w.deps.billing.subscription(s))) };
    }
    /** The same events once each, in the order they happened (within a second, by their place in a subscription's life). */
    async function reference(subs: readonly string[], make: (h: string) => ProviderEvent[]) {
      const w = world();
      const h = await w.household();
      const stampOf = (e: ProviderEvent) => changeOf(decodeProviderEvent(Buffer.from(JSON.stringify(e)))!)!.by;
      const inOrder = make(h).sort((a, b) => compareStamps(stampOf(a), stampOf(b)));
      return run(h, w, inOrder, subs);
    }

    it('ends in the same plan and subscription state for every delivery order, with replays', async () => {
      // Ids are fixed per scenario so that every world sees the same events; ties in created included.
      const make = (h: string) => [
        checkout('sub_1', h, T0 - 60),
        ev('customer.subscription.updated', { id: 'sub_1', status: 'past_due' }, T0 - 40, 'evt_s1'),
        ev('invoice.payment_failed', { subscription: 'sub_1' }, T0 - 40, 'evt_s2'),
        ev('customer.subscription.updated', { id: 'sub_1', status: 'active' }, T0 - 20, 'evt_s3'),
        ev('customer.subscription.updated', { id: 'sub_1', status: 'incomplete' }, T0 - 20, 'evt_s4'),
        ev('customer.subscription.deleted', { id: 'sub_1', status: 'canceled' }, T0 - 10, 'evt_s5'),
      ];
      const checkoutId = `evt_co_${randomUUID()}`;
      const fixed = (h: string) => make(h).map((e, i) => (i === 0 ? { ...e, id: checkoutId } : e));
      const expected = await reference(['sub_1'], fixed);
      expect(expected.plan).to.equal('Free');
      const random = mulberry32(20260504);
      let runs = 0;
      for (const order of permutations([0, 1, 2, 3, 4, 5])) {
        const w = world();
        const h = await w.household();
        const events = fixed(h);
        const once = order.map((i) => events[i]!);
        // Every third order also gets a few replays anywhere in it.
        const delivered = runs % 3 === 0 ? shuffle([...once, ...once.filter(() => random() < 0.4)], random) : once;
        const got = await run(h, w, delivered, ['sub_1']);
        expect({ ...got, subscriptions: got.subscriptions.map((s) => s && { ...s, household: s.household && { ...s.household, value: 'H' } }) }, `order ${order.join(',')}`).to.deep.equal({
          ...expected,
          subscriptions: expected.subscriptions.map((s) => s && { ...s, household: s.household && { ...s.household, value: 'H' } }),
        });
        runs++;
      }
      expect(runs).to.equal(720);
    });

    it('converges for random event sets over two subscriptions of a household (seeded)', async () => {
      const random = mulberry32(7);
      const statuses = ['active', 'trialing', 'past_due', 'canceled', 'unpaid', 'incomplete_expired', 'incomplete', 'paused'];
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
      for (let round = 0; round < 150; round++) {
        const size = 2 + Math.floor(random() * 7);
        // Times from a small range, so ties in created are common.
        const specs = Array.from({ length: size }, (_, i) => ({
          id: `evt_${round}_${i}`,
          sub: pick(['sub_a', 'sub_b']),
          kind: pick(['checkout', 'updated', 'deleted', 'failed'] as const),
          status: pick(statuses),
          created: T0 - Math.floor(random() * 5),
        }));
        const make = (h: string) =>
          specs.map((x) =>
            x.kind === 'checkout'
              ? ev('checkout.session.completed', { subscription: x.sub, metadata: { householdId: h } }, x.created, x.id)
              : x.kind === 'updated'
                ? ev('customer.subscription.updated', { id: x.sub, status: x.status }, x.created, x.id)
                : x.kind === 'deleted'
                  ? ev('customer.subscription.deleted', { id: x.sub, status: 'canceled' }, x.created, x.id)
                  : ev('invoice.payment_failed', { subscription: x.sub }, x.created, x.id),
          );
        const subs = ['sub_a', 'sub_b'];
        const expected = await reference(subs, make);
        const normalize = (o: Outcome) => ({ ...o, subscriptions: o.subscriptions.map((s) => s && { ...s, household: s.household && { ...s.household, value: 'H' } }) });
        for (let k = 0; k < 4; k++) {
          const w = world();
          const h = await w.household();
          const events = make(h);
          const delivered = shuffle([...events, ...events.filter(() => random() < 0.3)], random);
          expect(normalize(await run(h, w, delivered, subs)), `round ${round}, order ${delivered.map((e) => e.id).join(' ')}`).to.deep.equal(normalize(expected));
        }
      }
    });
  });
});
