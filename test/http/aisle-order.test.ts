import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { AISLES } from '../../core/pantry/model.js';
import { expectProblem, httpSuite } from '../support/http-suite.js';
import type { ShoppingItem } from '../support/shopping.js';

const NOW = new Date('2026-05-06T09:00:00.000Z');
const MONDAYS = ['2026-05-04', '2026-05-11', '2026-05-18'];
// The walk of the household's store: bread first, then milk, meat, pasta, and fruit and vegetables last.
const WALK = [
  ['brød', 'Bakery'],
  ['melk', 'Dairy'],
  ['kjøttdeig', 'Meat'],
  ['pasta', 'Dry'],
  ['løk', 'Produce'],
] as const;

httpSuite('aisle order', { now: NOW }, (server) => {
  const household = () => server.household();
  type H = Awaited<ReturnType<typeof household>>;
  const orderOf = (h: H, query = '') => h.owner.get(`${h.base}/aisle-order${query}`);
  const aisles = (placed: { aisle: string }[]) => placed.map((p) => p.aisle);

  /** One week's trip: the walk's foods added by hand, ticked in the walk's order, the trip finished. */
  async function trip(h: H, monday: string) {
    const plan = (await h.owner.put(`${h.base}/plans/week/${monday}`)).json;
    const list = `${h.base}/plans/${plan.id}/shopping-list`;
    for (const [food] of [...WALK].reverse()) expect((await h.owner.post(`${list}/items`, { displayName: food })).status).to.equal(200);
    const items = (await h.owner.get(list)).json.items as (ShoppingItem & { aisle: string })[];
    for (const [food, aisle] of WALK) {
      const line = items.find((i) => i.displayName.toLowerCase() === food)!;
      expect(line.aisle).to.equal(aisle);
      const res = await h.owner.patch(`${h.base}/shopping-items/${line.id}`, { status: 'Purchased' });
      expect(res.status, res.text).to.equal(200);
    }
    expect((await h.owner.post(`${list}/complete`)).status).to.equal(200);
  }

  it('a new household has the default order of "my-store"', async () => {
    const h = await household();
    const res = await orderOf(h);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ store: 'my-store', aisles: AISLES.map((aisle) => ({ aisle, source: 'Default' })), learned: AISLES.map((aisle) => ({ aisle, source: 'Default' })), tripsLearnedFrom: 0, handSetAt: null });
  });

  it('three finished trips ticked in one order teach that order, for the household\'s chain; ticks of an open trip do not count', async () => {
    const h = await household();
    expect((await h.owner.patch(h.base, { chains: ['Rema 1000', 'Kiwi'] })).status).to.equal(200);
    for (const monday of MONDAYS) await trip(h, monday);
    const res = await orderOf(h);
    expect(res.json.store).to.equal('Rema 1000');
    expect(res.json.tripsLearnedFrom).to.equal(3);
    expect(aisles(res.json.aisles).filter((a) => WALK.some(([, w]) => w === a))).to.deep.equal(WALK.map(([, a]) => a));
    expect(res.json.aisles.filter((p: { source: string }) => p.source === 'Learned')).to.have.length(WALK.length);
    // The same store named; another chain has learned nothing.
    expect((await orderOf(h, '?store=Rema%201000')).json).to.deep.equal(res.json);
    expect((await orderOf(h, '?store=Kiwi')).json).to.include({ store: 'Kiwi', tripsLearnedFrom: 0 });
    // A fourth week ticked but not finished changes nothing.
    const plan = (await h.owner.put(`${h.base}/plans/week/2026-05-25`)).json;
    const added = await h.owner.post(`${h.base}/plans/${plan.id}/shopping-list/items`, { displayName: 'løk' });
    await h.owner.patch(`${h.base}/shopping-items/${added.json.id}`, { status: 'Purchased' });
    expect((await orderOf(h)).json).to.deep.equal(res.json);
  });

  it('answers 304 to a matching If-None-Match, and a new ETag once the order changes', async () => {
    const h = await household();
    const first = await orderOf(h);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^W\/"[0-9a-f]{32}"$/);
    const again = await h.owner.get(`${h.base}/aisle-order`, { headers: { 'If-None-Match': etag } });
    expect(again.status).to.equal(304);
    expect(again.text).to.equal('');
    const order = [...AISLES].reverse();
    expect((await h.owner.put(`${h.base}/aisle-order`, { aisles: order })).status).to.equal(200);
    const changed = await h.owner.get(`${h.base}/aisle-order`, { headers: { 'If-None-Match': etag } });
    expect(changed.status).to.equal(200);
    expect(changed.headers.get('etag')).to.not.equal(etag);
  });

  it('a hand order wins whole until forgotten; adults only; every aisle exactly once', async () => {
    const h = await household();
    const order = ['Dairy', 'Produce', 'Meat', 'Bakery', 'Frozen', 'Dry', 'Other'];
    const set = await h.owner.put(`${h.base}/aisle-order`, { aisles: order });
    expect(set.status, set.text).to.equal(200);
    expect(set.json.aisles).to.deep.equal(order.map((aisle) => ({ aisle, source: 'Hand' })));
    expect(set.json.handSetAt).to.equal(NOW.toISOString());
    expect(aisles(set.json.learned)).to.deep.equal([...AISLES]);
    expect((await orderOf(h)).json).to.deep.equal(set.json);
    for (const bad of [order.slice(1), [...order.slice(1), 'Candy'], ['Dairy', 'Dairy', ...order.slice(2)], 'Dairy']) {
      expectProblem(await h.owner.put(`${h.base}/aisle-order`, { aisles: bad }), 400, 'validation_failed');
    }
    // More entries than there are aisles is refused as every over-long array is, before its items are looked at.
    expectProblem(await h.owner.put(`${h.base}/aisle-order`, { aisles: [...order, 'Dairy'] }), 400, 'value_too_long');
    expectProblem(await h.owner.put(`${h.base}/aisle-order?store=%20`, { aisles: order }), 400, 'validation_failed');
    const junior = (await h.join('Junior')).client;
    expect((await junior.get(`${h.base}/aisle-order`)).json).to.deep.equal(set.json);
    expectProblem(await junior.put(`${h.base}/aisle-order`, { aisles: order }), 403, 'adults_only');
    expectProblem(await junior.delete(`${h.base}/aisle-order`), 403, 'adults_only');
    const forgot = await h.owner.delete(`${h.base}/aisle-order`);
    expect(forgot.status, forgot.text).to.equal(200);
    expect(forgot.json).to.include({ handSetAt: null });
    expect(aisles(forgot.json.aisles)).to.deep.equal([...AISLES]);
  });

  describe('under an Idempotency-Key', () => {
    const MINUTE = 60 * 1000;
    const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });
    const FIRST = ['Dairy', 'Produce', 'Meat', 'Bakery', 'Frozen', 'Dry', 'Other'];
    const SECOND = [...FIRST].reverse();
    /** The stored order as a GET reads it: its aisles, and when the hand order was set. */
    const stored = async (h: H) => {
      const res = await orderOf(h);
      expect(res.status, res.text).to.equal(200);
      return { aisles: aisles(res.json.aisles), handSetAt: res.json.handSetAt as string | null };
    };

    it('a PUT repeated with its key answers the first answer again and changes nothing; the key with another order is 422', async () => {
      const h = await household();
      const key = randomUUID();
      const first = await h.owner.put(`${h.base}/aisle-order`, { aisles: FIRST }, keyed(key));
      expect(first.status, first.text).to.equal(200);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      // Later, another order under another key: the one the replay must leave alone.
      server.clock.advance(MINUTE);
      const later = await h.owner.put(`${h.base}/aisle-order`, { aisles: SECOND }, keyed(randomUUID()));
      expect(later.status, later.text).to.equal(200);
      const after = await stored(h);
      expect(after).to.deep.equal({ aisles: SECOND, handSetAt: new Date(NOW.getTime() + MINUTE).toISOString() });

      server.clock.advance(MINUTE);
      const again = await h.owner.put(`${h.base}/aisle-order`, { aisles: FIRST }, keyed(key));
      expect(again.status, again.text).to.equal(first.status);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.headers.get('content-type')).to.match(/^application\/json/);
      expect(again.json).to.deep.equal(first.json);
      expect(aisles(again.json.aisles)).to.deep.equal(FIRST);
      // Run again, it would have put FIRST back, set two minutes on.
      expect(await stored(h)).to.deep.equal(after);

      const reused = await h.owner.put(`${h.base}/aisle-order`, { aisles: [...AISLES] }, keyed(key));
      expectProblem(reused, 422, 'idempotency_key_reused');
      expect(await stored(h)).to.deep.equal(after);
    });

    it('a key belongs to the query too: the same order for another store under the key is 422 and sets nothing', async () => {
      const h = await household();
      const key = randomUUID();
      const kiwi = await h.owner.put(`${h.base}/aisle-order?store=Kiwi`, { aisles: FIRST }, keyed(key));
      expect(kiwi.status, kiwi.text).to.equal(200);
      const rema = await h.owner.put(`${h.base}/aisle-order?store=${encodeURIComponent('Rema 1000')}`, { aisles: FIRST }, keyed(key));
      expectProblem(rema, 422, 'idempotency_key_reused');
      const remaOrder = await h.owner.get(`${h.base}/aisle-order?store=${encodeURIComponent('Rema 1000')}`);
      expect(remaOrder.json.handSetAt, remaOrder.text).to.equal(null);
      // The first request repeated is still its replay.
      const again = await h.owner.put(`${h.base}/aisle-order?store=Kiwi`, { aisles: FIRST }, keyed(key));
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.json).to.deep.equal(kiwi.json);
    });

    it('a DELETE repeated with its key answers the first answer again and forgets no later hand order; the key on a PUT is 422', async () => {
      const h = await household();
      expect((await h.owner.put(`${h.base}/aisle-order`, { aisles: FIRST })).status).to.equal(200);
      const key = randomUUID();
      const forgot = await h.owner.delete(`${h.base}/aisle-order`, keyed(key));
      expect(forgot.status, forgot.text).to.equal(200);
      expect(forgot.json).to.include({ handSetAt: null });
      expect(await stored(h)).to.deep.equal({ aisles: [...AISLES], handSetAt: null });

      server.clock.advance(MINUTE);
      expect((await h.owner.put(`${h.base}/aisle-order`, { aisles: SECOND })).status).to.equal(200);
      const after = await stored(h);
      expect(after).to.deep.equal({ aisles: SECOND, handSetAt: new Date(NOW.getTime() + MINUTE).toISOString() });

      const again = await h.owner.delete(`${h.base}/aisle-order`, keyed(key));
      expect(again.status, again.text).to.equal(forgot.status);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.json).to.deep.equal(forgot.json);
      // Run again, it would have forgotten SECOND.
      expect(await stored(h)).to.deep.equal(after);

      // The key belongs to the DELETE: a PUT (another method, a body) under it is refused and sets nothing.
      expectProblem(await h.owner.put(`${h.base}/aisle-order`, { aisles: FIRST }, keyed(key)), 422, 'idempotency_key_reused');
      expect(await stored(h)).to.deep.equal(after);
    });
  });

  it('another household\'s order is 404, to read and to set', async () => {
    const h = await household();
    const other = await household();
    expectProblem(await other.owner.get(`${h.base}/aisle-order`), 404, 'household_not_found');
    expectProblem(await other.owner.put(`${h.base}/aisle-order`, { aisles: [...AISLES] }), 404, 'household_not_found');
    expectProblem(await other.owner.delete(`${h.base}/aisle-order`), 404, 'household_not_found');
  });
});
