import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ShoppingListContent } from '../../core/shopping/types.js';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

const STORE = 'Rema 1000';
const emptyList = (completedAt: Date | null): ShoppingListContent => ({
  generatedAt: at('2026-05-04T09:00:00.000Z'),
  completedAt,
  skippedReferences: [],
  addedReferences: [],
  trip: null,
  lines: [],
  madeFor: {},
  wouldAdd: [],
  staleSince: null,
});

/** A stored list of a new plan of the household (one plan per week, from `monday`). */
async function listOf(s: Stores, householdId: string, monday: string) {
  const p = await s.plans.getOrCreate(householdId, monday, { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: at('2026-05-01T00:00:00.000Z') });
  const listId = randomUUID();
  await s.shoppingLists.change(householdId, p.id, { listId }, () => ({ write: emptyList(null), result: null }));
  return { householdId, planId: p.id, listId };
}

type List = Awaited<ReturnType<typeof listOf>>;

export function aisleOrderStoreContract(backend: Backend): void {
  storeSuite(backend, 'AisleOrderStore', (s) => {
    const tick = (l: List, aisle: string, lineId: string = randomUUID(), store = STORE, keep = 20) =>
      s.aisleOrders.recordTick({ householdId: l.householdId, store, listId: l.listId, planId: l.planId, lineId, aisle, at: at('2026-05-05T17:00:00.123Z') }, keep);
    const finish = (l: List, when: string) => s.shoppingLists.change(l.householdId, l.planId, { listId: l.listId }, () => ({ write: emptyList(at(when)), result: null }));
    const reopen = (l: List) => s.shoppingLists.change(l.householdId, l.planId, { listId: l.listId }, () => ({ write: emptyList(null), result: null }));
    async function household() {
      return (await ownedHousehold(s)).id;
    }

    it('answers only finished trips, newest finished first, each with its aisles in tick order', async () => {
      const h = await household();
      const first = await listOf(s, h, '2026-05-04');
      const second = await listOf(s, h, '2026-05-11');
      const open = await listOf(s, h, '2026-05-18');
      for (const a of ['Produce', 'Dairy', 'Produce', 'Meat']) await tick(first, a);
      for (const a of ['Dairy', 'Produce']) await tick(second, a);
      await tick(open, 'Frozen');
      expect(await s.aisleOrders.finishedTrips(h, STORE, 10)).to.deep.equal([]);
      await finish(first, '2026-05-06T18:00:00.000Z');
      await finish(second, '2026-05-13T18:00:00.000Z');
      expect(await s.aisleOrders.finishedTrips(h, STORE, 10)).to.deep.equal([
        { listId: second.listId, finishedAt: at('2026-05-13T18:00:00.000Z'), aisles: ['Dairy', 'Produce'] },
        { listId: first.listId, finishedAt: at('2026-05-06T18:00:00.000Z'), aisles: ['Produce', 'Dairy', 'Produce', 'Meat'] },
      ]);
      expect((await s.aisleOrders.finishedTrips(h, STORE, 1)).map((t) => t.listId)).to.deep.equal([second.listId]);
      // A reopened trip no longer counts.
      await reopen(second);
      expect((await s.aisleOrders.finishedTrips(h, STORE, 10)).map((t) => t.listId)).to.deep.equal([first.listId]);
    });

    it('counts a line ticked again where it was ticked last, keeps stores and households apart', async () => {
      const h = await household();
      const other = await household();
      const l = await listOf(s, h, '2026-05-04');
      const o = await listOf(s, other, '2026-05-04');
      const milk = randomUUID();
      await tick(l, 'Dairy', milk);
      await tick(l, 'Produce');
      await tick(l, 'Dairy', milk);
      await tick(l, 'Bakery', randomUUID(), 'Kiwi');
      await tick(o, 'Frozen');
      await finish(l, '2026-05-06T18:00:00.000Z');
      await finish(o, '2026-05-06T18:00:00.000Z');
      expect((await s.aisleOrders.finishedTrips(h, STORE, 10))[0]!.aisles).to.deep.equal(['Produce', 'Dairy']);
      expect((await s.aisleOrders.finishedTrips(h, 'Kiwi', 10))[0]!.aisles).to.deep.equal(['Bakery']);
      expect((await s.aisleOrders.finishedTrips(other, STORE, 10))[0]!.aisles).to.deep.equal(['Frozen']);
      expect(await s.aisleOrders.finishedTrips(h, 'Meny', 10)).to.deep.equal([]);
    });

    it('keeps the ticks of the store\'s newest lists only (by their last tick); trips finished at once: the later ticked first', async () => {
      const h = await household();
      const lists = [await listOf(s, h, '2026-05-04'), await listOf(s, h, '2026-05-11'), await listOf(s, h, '2026-05-18')];
      for (const l of lists) await tick(l, 'Produce', randomUUID(), STORE, 2);
      await tick(lists[0]!, 'Dairy', randomUUID(), 'Kiwi', 2);
      for (const l of lists) await finish(l, '2026-05-20T18:00:00.000Z');
      expect((await s.aisleOrders.finishedTrips(h, STORE, 10)).map((t) => t.listId)).to.deep.equal([lists[2]!.listId, lists[1]!.listId]);
      // Another store's ticks of the same list are that store's own.
      expect((await s.aisleOrders.finishedTrips(h, 'Kiwi', 10)).map((t) => t.aisles)).to.deep.equal([['Dairy']]);
    });

    it('sets, replaces and forgets a hand order per store', async () => {
      const h = await household();
      const order = ['Dairy', 'Produce', 'Meat', 'Bakery', 'Frozen', 'Dry', 'Other'] as const;
      expect(await s.aisleOrders.handOrder(h, STORE)).to.equal(null);
      expect(await s.aisleOrders.forgetHandOrder(h, STORE)).to.equal(false);
      await s.aisleOrders.setHandOrder(h, STORE, order, at('2026-05-05T10:00:00.456Z'));
      expect(await s.aisleOrders.handOrder(h, STORE)).to.deep.equal({ aisles: order, setAt: at('2026-05-05T10:00:00.456Z') });
      const again = [...order].reverse();
      await s.aisleOrders.setHandOrder(h, STORE, again, at('2026-05-06T10:00:00.000Z'));
      expect(await s.aisleOrders.handOrder(h, STORE)).to.deep.equal({ aisles: again, setAt: at('2026-05-06T10:00:00.000Z') });
      expect(await s.aisleOrders.handOrder(h, 'Kiwi')).to.equal(null);
      expect(await s.aisleOrders.handOrder(await household(), STORE)).to.equal(null);
      expect(await s.aisleOrders.forgetHandOrder(h, STORE)).to.equal(true);
      expect(await s.aisleOrders.handOrder(h, STORE)).to.equal(null);
    });

    it('goes with its household', async () => {
      const h = await household();
      const l = await listOf(s, h, '2026-05-04');
      await tick(l, 'Produce');
      await finish(l, '2026-05-06T18:00:00.000Z');
      await s.aisleOrders.setHandOrder(h, STORE, ['Dairy', 'Produce', 'Meat', 'Bakery', 'Frozen', 'Dry', 'Other'], at('2026-05-05T10:00:00.000Z'));
      await s.households.delete(h);
      expect(await s.aisleOrders.finishedTrips(h, STORE, 10)).to.deep.equal([]);
      expect(await s.aisleOrders.handOrder(h, STORE)).to.equal(null);
    });
  });
}
