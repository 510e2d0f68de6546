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

  it('another household\'s order is 404, to read and to set', async () => {
    const h = await household();
    const other = await household();
    expectProblem(await other.owner.get(`${h.base}/aisle-order`), 404, 'household_not_found');
    expectProblem(await other.owner.put(`${h.base}/aisle-order`, { aisles: [...AISLES] }), 404, 'household_not_found');
    expectProblem(await other.owner.delete(`${h.base}/aisle-order`), 404, 'household_not_found');
  });
});
