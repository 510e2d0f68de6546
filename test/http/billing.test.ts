import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { providerSignature } from '../../adapters/crypto/webhook-signature.js';
import { httpSuite } from '../support/http-suite.js';
import { Client, type Answer } from '../support/client.js';
import { providerEvent, TIE_CASES, tieDeliveries } from '../support/billing-ties.js';

const SECRET = 'whsec_test';
const NOW = new Date('2026-05-04T09:00:00.000Z');
const T0 = NOW.getTime() / 1000;
const WEBHOOK = '/api/v1/billing/webhook';

let counter = 0;
const ev = (type: string, object: Record<string, unknown>, created = T0, id = `evt_${randomUUID().replace(/-/g, '')}_${++counter}`) => ({
  id,
  object: 'event',
  api_version: '2024-06-20',
  type,
  created,
  livemode: false,
  data: { object },
});
const checkout = (sub: string, householdId: string, created = T0) =>
  ev('checkout.session.completed', { id: `cs_${++counter}`, object: 'checkout.session', mode: 'subscription', subscription: sub, metadata: { householdId } }, created);
const updated = (sub: string, status: string, created = T0) => ev('customer.subscription.updated', { id: sub, object: 'subscription', status }, created);
const deleted = (sub: string, created = T0) => ev('customer.subscription.deleted', { id: sub, object: 'subscription', status: 'canceled' }, created);
const failed = (sub: string, created = T0) => ev('invoice.payment_failed', { id: `in_${++counter}`, object: 'invoice', subscription: sub }, created);
const newSubscription = () => `sub_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

function expectRejected(res: Answer): void {
  expect(res.status, res.text).to.equal(400);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json\b/);
  expect(res.json.code).to.equal('billing_webhook_rejected');
}

httpSuite('billing webhook over HTTP', { now: NOW, env: { BILLING_WEBHOOK_SECRET: SECRET } }, (server) => {
  const { clock, log } = server;
  const anon = () => server.client();

  const header = (body: string, at = clock.now(), secret = SECRET) => {
    const t = Math.floor(at.getTime() / 1000);
    return `t=${t},v1=${providerSignature(secret, t, body)}`;
  };
  const post = (body: string, signature: string | null, contentType = 'application/json; charset=utf-8') =>
    anon().request('POST', WEBHOOK, { rawBody: body, headers: { 'Content-Type': contentType, ...(signature === null ? {} : { 'Provider-Signature': signature }) } });
  const deliver = (event: object) => {
    // Pretty-printed on purpose: the signature is over these bytes, not over any re-encoding of the JSON.
    const body = JSON.stringify(event, null, 2);
    return post(body, header(body));
  };
  const planOf = async (h: { owner: Client; base: string }) => {
    const res = await h.owner.get(h.base);
    expect(res.status, res.text).to.equal(200);
    return res.json.plan as string;
  };
  const applied = async (eventId: string) => (await server.runtime.db.knex('billing_events').where({ id: eventId }).first()) !== undefined;

  it('applies a checkout with a good signature: 200, and the household is on Plus', async () => {
    const h = await server.household();
    expect(await planOf(h)).to.equal('Free');
    const res = await deliver(checkout(newSubscription(), h.id));
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ status: 'applied' });
    expect(await planOf(h)).to.equal('Plus');
  });

  it('answers 400 billing_webhook_rejected for a bad, missing or old signature or a tampered body, changing nothing', async () => {
    const h = await server.household();
    const e = checkout(newSubscription(), h.id);
    const body = JSON.stringify(e);
    expectRejected(await post(body, null));
    expectRejected(await post(body, ''));
    expectRejected(await post(body, 'not a signature'));
    expectRejected(await post(body, header(body, NOW, 'whsec_other')));
    expectRejected(await post(body, header(body).replace(/v1=./, (m) => (m.endsWith('0') ? 'v1=1' : 'v1=0'))));
    expectRejected(await post(body.replace(h.id, randomUUID()), header(body)));
    expectRejected(await post(`${body} `, header(body)));
    // Signed 301 s before the server's clock, and 301 s after it.
    expectRejected(await post(body, header(body, new Date(NOW.getTime() - 301_000))));
    const signedNow = header(body);
    clock.advance(301_000);
    expectRejected(await post(body, signedNow));
    clock.set(NOW);
    expect(await planOf(h)).to.equal('Free');
    expect(await applied(e.id)).to.equal(false);
    // The same bytes, signed now, go through.
    expect((await post(body, header(body))).status).to.equal(200);
    expect(await planOf(h)).to.equal('Plus');
  });

  it('accepts a signature at the edge of the 300 s tolerance', async () => {
    const h = await server.household();
    const body = JSON.stringify(checkout(newSubscription(), h.id));
    const signed = header(body);
    clock.advance(300_000);
    expect((await post(body, signed)).status).to.equal(200);
  });

  it('accepts two v1 signatures of which one is right (secret rotation)', async () => {
    const h = await server.household();
    const body = JSON.stringify(checkout(newSubscription(), h.id));
    const t = Math.floor(NOW.getTime() / 1000);
    const res = await post(body, `t=${t},v1=${providerSignature('whsec_retired', t, body)},v1=${providerSignature(SECRET, t, body)}`);
    expect(res.status, res.text).to.equal(200);
    expect(await planOf(h)).to.equal('Plus');
    expectRejected(await post(body, `t=${t},v1=${providerSignature('whsec_retired', t, body)},v1=${providerSignature('whsec_other', t, body)}`));
  });

  it('reads the body as sent whatever its Content-Type says', async () => {
    const h = await server.household();
    const body = JSON.stringify(checkout(newSubscription(), h.id));
    expect((await post(body, header(body), 'text/plain')).status).to.equal(200);
    expect(await planOf(h)).to.equal('Plus');
  });

  it('answers 400 billing_webhook_rejected for a signed body that is not an event; a bad signature comes first', async () => {
    for (const body of ['{"id":', '{}', JSON.stringify(ev('customer.subscription.updated', { id: 'sub_x' }))]) {
      const res = await post(body, header(body));
      expectRejected(res);
      expect(res.json.detail).to.match(/not a billing event/);
      expect((await post(body, 'garbage')).json.detail).to.match(/Provider-Signature/);
    }
  });

  it('answers 200 ignored for other event types and for a checkout of a household it does not hold (logged)', async () => {
    const other = ev('customer.created', { id: 'cus_1', object: 'customer' });
    expect((await deliver(other)).json).to.deep.equal({ status: 'ignored' });
    expect(await applied(other.id)).to.equal(false);
    const stranger = checkout(newSubscription(), randomUUID());
    const res = await deliver(stranger);
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({ status: 'ignored' });
    expect(log.lines.some((l) => l['msg'] === 'billing event ignored' && l['eventId'] === stranger.id && l['because'] === 'household-unknown')).to.equal(true);
  });

  it('answers a replay 200 replayed and changes nothing', async () => {
    const h = await server.household();
    const sub = newSubscription();
    const c = checkout(sub, h.id, T0 - 60);
    expect((await deliver(c)).json).to.deep.equal({ status: 'applied' });
    const d = deleted(sub, T0 - 30);
    expect((await deliver(d)).json).to.deep.equal({ status: 'applied' });
    expect(await planOf(h)).to.equal('Free');
    expect((await deliver(c)).json).to.deep.equal({ status: 'replayed' });
    expect((await deliver(d)).json).to.deep.equal({ status: 'replayed' });
    expect(await planOf(h)).to.equal('Free');
  });

  it('follows the events by their own time: out of order and before the checkout', async () => {
    const h = await server.household();
    const sub = newSubscription();
    // A payment failure and a later reactivation arrive before the checkout that started it all.
    expect((await deliver(failed(sub, T0 - 20))).status).to.equal(200);
    expect((await deliver(updated(sub, 'active', T0 - 10))).status).to.equal(200);
    expect(await planOf(h)).to.equal('Free');
    await deliver(checkout(sub, h.id, T0 - 30));
    expect(await planOf(h)).to.equal('Plus');
    // A cancellation older than the reactivation changes nothing; a newer deletion does.
    await deliver(updated(sub, 'canceled', T0 - 15));
    expect(await planOf(h)).to.equal('Plus');
    await deliver(deleted(sub, T0));
    expect(await planOf(h)).to.equal('Free');
    const row = await server.runtime.deps.billing.subscription(sub);
    expect([row!.household!.value, row!.plan!.value, row!.status!.value, row!.paymentFailing!.value]).to.deep.equal([h.id, 'Free', 'canceled', false]);
  });

  describe('events of the same second: a rule for each pair, not their ids', () => {
    for (const c of TIE_CASES) {
      it(`${c.name}: ${c.expected.plan}, status ${c.expected.status}, payment failing ${c.expected.paymentFailing}`, async () => {
        const { owner } = await server.household();
        for (const delivery of tieDeliveries(c, T0, `evt_${randomUUID().replace(/-/g, '')}`)) {
          const created = await owner.post('/api/v1/households', { name: 'Tie' });
          expect(created.status, created.text).to.equal(201);
          const household = { owner, id: created.json.id as string, base: `/api/v1/households/${created.json.id}` };
          const sub = newSubscription();
          for (const e of delivery.events) {
            const res = await deliver(providerEvent(e, sub, household.id));
            expect(res.status, `${delivery.label}: ${res.text}`).to.equal(200);
          }
          const s = (await server.runtime.deps.billing.subscription(sub))!;
          expect({ plan: await planOf(household), status: s.status?.value ?? null, paymentFailing: s.paymentFailing?.value ?? false }, delivery.label).to.deep.equal(c.expected);
        }
      });
    }
  });

  it('keeps the plan on a payment failure', async () => {
    const h = await server.household();
    const sub = newSubscription();
    await deliver(checkout(sub, h.id, T0 - 30));
    expect((await deliver(failed(sub))).json).to.deep.equal({ status: 'applied' });
    expect(await planOf(h)).to.equal('Plus');
    expect((await server.runtime.deps.billing.subscription(sub))!.paymentFailing!.value).to.equal(true);
  });

  it('Plus unlocks referral codes; back on Free lists none; the same codes return with Plus', async () => {
    const h = await server.household();
    const codes = `${h.base}/referral-codes`;
    expect((await h.owner.get(codes)).json).to.deep.equal([]);
    const first = newSubscription();
    await deliver(checkout(first, h.id, T0 - 60));
    const minted = (await h.owner.get(codes)).json;
    expect(minted).to.have.length(3);
    await deliver(deleted(first, T0 - 30));
    expect(await planOf(h)).to.equal('Free');
    expect((await h.owner.get(codes)).json).to.deep.equal([]);
    await deliver(checkout(newSubscription(), h.id, T0));
    expect((await h.owner.get(codes)).json).to.deep.equal(minted);
  });

  it('refuses a body over 1 MiB with 413 and a NUL with 400, before any signature check', async () => {
    const big = JSON.stringify({ ...ev('customer.created', {}), pad: 'x'.repeat(1024 * 1024) });
    const res = await post(big, header(big));
    expect(res.status).to.equal(413);
    expect(res.json.code).to.equal('payload_too_large');
    const nul = JSON.stringify(ev('customer.created', { name: 'a\u0000b' }));
    const r2 = await post(nul, header(nul));
    expect(r2.status).to.equal(400);
    expect(r2.json.code).to.equal('validation_failed');
  });

  it('documents the route, its signature header and its problem in OpenAPI', async () => {
    const doc = (await anon().get('/api/v1/openapi.json')).json;
    const op = doc.paths[WEBHOOK].post;
    expect(op.security).to.deep.equal([]);
    expect(op.parameters).to.deep.include({ name: 'Provider-Signature', in: 'header', required: true, description: op.parameters[0].description, schema: { type: 'string' } });
    expect(op.requestBody.content['application/json'].schema).to.have.property('anyOf');
    expect(op.responses['400'].description).to.match(/billing_webhook_rejected/);
    expect(op.responses['413'].description).to.match(/payload_too_large/);
    expect(op.description).to.match(/300 s/);
  });
});

httpSuite('billing webhook without a secret', { now: NOW }, (server) => {

  it('answers every delivery 400 billing_webhook_rejected', async () => {
    const h = await server.household();
    for (const secret of [SECRET, '']) {
      const body = JSON.stringify(checkout(newSubscription(), h.id));
      const t = Math.floor(NOW.getTime() / 1000);
      const res = await server.client().request('POST', WEBHOOK, {
        rawBody: body,
        headers: { 'Content-Type': 'application/json', 'Provider-Signature': `t=${t},v1=${providerSignature(secret, t, body)}` },
      });
      expectRejected(res);
    }
    expect((await h.owner.get(h.base)).json.plan).to.equal('Free');
  });
});
