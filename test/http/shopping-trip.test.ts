import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Answer } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';
import { addDish, recipeBody, type PlannedWeek, type ShoppingItem } from '../support/shopping.js';

const NOW = new Date('2026-05-06T09:00:00.000Z'); // a Wednesday; Oslo's week starts Monday 2026-05-04
const MONDAY = '2026-05-04';


httpSuite('shopping trip and recipe lines', { now: NOW }, (server) => {

  const household = () => server.plannedWeek(MONDAY);
  type H = PlannedWeek;
  const junior = async (h: Pick<H, 'join'>) => (await h.join('Junior')).client;
  const dish = addDish;
  /** A week with Taco (4 servings, 400 g meat, 1 onion, 2 dl cream) served for 4 on Monday. */
  async function tacoWeek(h: H) {
    const taco = await dish(h, recipeBody('Taco', 4, [
      { displayName: 'Kjøttdeig', quantity: 400, unit: 'g' },
      { displayName: 'Løk', quantity: 1, unit: 'stk' },
      { displayName: 'Fløte', quantity: 2, unit: 'dl' },
    ]));
    const res = await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${MONDAY}`, { recipeId: taco.id, portions: 4, note: null });
    expect(res.status, res.text).to.equal(200);
    const items = (await h.owner.get(h.list)).json.items as ShoppingItem[];
    const line = (name: string) => items.find((i) => i.displayName === name)!;
    return { taco, meat: line('Kjøttdeig'), onion: line('Løk'), cream: line('Fløte') };
  }
  const tick = (h: H, itemId: string, body: Record<string, unknown>) => h.owner.patch(`${h.base}/shopping-items/${itemId}`, body);
  const pushes = async (h: H, k: string) => (await server.runtime.deps.pushOutbox.pending(10_000)).filter((e) => e.householdId === h.id && e.event.kind === k);
  const pantry = (h: H) => server.runtime.deps.pantry.ofHousehold(h.id);
  const byName = (items: ShoppingItem[], name: string) => items.find((i) => i.displayName === name);

  describe('complete', () => {
    it('closes the trip once: ticked lines go to the pantry as Purchased, a summary, one receipt-reminder to the shopper', async () => {
      const h = await household();
      const { meat, onion } = await tacoWeek(h);
      expect((await tick(h, meat.id, { status: 'Purchased' })).status).to.equal(200);
      expect((await tick(h, onion.id, { status: 'Purchased', purchasedQuantity: 0.5 })).status).to.equal(200);
      const res = await h.owner.post(`${h.list}/complete`);
      expect(res.status, res.text).to.equal(200);
      expect(res.json.completedAt).to.equal(NOW.toISOString());
      expect(res.json.tripSummary).to.deep.equal({ linesBought: 1, linesLeft: 2, observationsWritten: 2, carried: null });
      const observed = await pantry(h);
      expect(observed.map((o) => [o.foodKey, o.observationType, o.quantity, o.unit])).to.have.deep.members([
        [meat.foodKey, 'Purchased', 400, 'g'],
        [onion.foodKey, 'Purchased', 0.5, 'pcs'],
      ]);
      const reminders = await pushes(h, 'receipt-reminder');
      expect(reminders).to.have.length(1);
      const me = (await h.owner.get('/api/v1/me')).json.user;
      expect(reminders[0]!.event).to.deep.include({ planId: h.plan.id, listId: res.json.id, accountId: me.id });

      // Idempotent: nothing more written, the closed list answered.
      const again = await h.owner.post(`${h.list}/complete?markAllBought=true`);
      expect(again.status).to.equal(200);
      expect(again.json).to.deep.equal(res.json);
      expect(again.headers.get('etag')).to.equal(res.headers.get('etag'));
      expect(await pantry(h)).to.have.length(2);
      expect(await pushes(h, 'receipt-reminder')).to.have.length(1);
      // A closed list is not derived again on read.
      expect((await h.owner.get(h.list)).json).to.deep.equal(res.json);
    });

    it('markAllBought ticks every remaining line and writes each to the pantry', async () => {
      const h = await household();
      const { meat } = await tacoWeek(h);
      await tick(h, meat.id, { status: 'Purchased', purchasedQuantity: 100 });
      const res = await h.owner.post(`${h.list}/complete?markAllBought=true`);
      expect(res.status, res.text).to.equal(200);
      expect((res.json.items as ShoppingItem[]).every((i) => i.status === 'Purchased')).to.equal(true);
      // 100 g in the basket, and the rest (300 g) bought as what a shop sells: one package of 400 g.
      expect(byName(res.json.items, 'Kjøttdeig')).to.include({ purchasedQuantity: 500 });
      expect(res.json.tripSummary).to.deep.equal({ linesBought: 3, linesLeft: 0, observationsWritten: 3, carried: null });
      expect(await pantry(h)).to.have.length(3);
    });

    it('is for any member (a Junior too); 404 for another household\'s plan; 400 on a bad markAllBought', async () => {
      const h = await household();
      await tacoWeek(h);
      const j = await junior(h);
      const other = await household();
      const theirs = await other.owner.post(`${other.base}/plans/${h.plan.id}/shopping-list/complete`);
      expect([theirs.status, theirs.json.code]).to.deep.equal([404, 'plan_not_found']);
      expect((await h.owner.post(`${h.list}/complete?markAllBought=maybe`)).status).to.equal(400);
      const res = await j.post(`${h.list}/complete`);
      expect(res.status, res.text).to.equal(200);
      expect(res.json.completedAt).to.not.equal(null);
      const me = (await j.get('/api/v1/me')).json.user;
      expect((await pushes(h, 'receipt-reminder')).map((e) => (e.event as { accountId: string }).accountId)).to.deep.equal([me.id]);
    });
  });

  describe('unticked lines at the closing', () => {
    const NEXT_MONDAY = '2026-05-11';
    /** The next week's list, as a GET answers it (its plan found by week). */
    async function nextList(h: H) {
      const plans = (await h.owner.get(`${h.base}/plans?from=${NEXT_MONDAY}&to=${NEXT_MONDAY}`)).json as { id: string; weekStart: string }[];
      const next = plans.find((p) => p.weekStart === NEXT_MONDAY);
      if (!next) return null;
      const res = await h.owner.get(`${h.base}/plans/${next.id}/shopping-list`);
      expect(res.status, res.text).to.equal(200);
      return { path: `${h.base}/plans/${next.id}/shopping-list`, items: res.json.items as ShoppingItem[] };
    }
    const amounts = (items: ShoppingItem[]) => items.map((i) => [i.displayName, i.requiredQuantity, i.unit, i.reasonCode, i.status]);

    it('keep carries what is left of each unticked line into the next week\'s list (its plan made), and reopening takes it back', async () => {
      const h = await household();
      const { meat, onion } = await tacoWeek(h);
      await tick(h, meat.id, { status: 'Purchased' });
      await tick(h, onion.id, { status: 'Purchased', purchasedQuantity: 0.25 });
      expect(await nextList(h)).to.equal(null);
      const res = await h.owner.post(`${h.list}/complete?unticked=keep`);
      expect(res.status, res.text).to.equal(200);
      // Nothing on the closed list changes: the unticked lines stay unbought there, and the summary says where they went.
      expect(byName(res.json.items, 'Fløte')).to.include({ status: 'Buy', purchasedQuantity: 0 });
      const next = (await nextList(h))!;
      expect(res.json.tripSummary).to.deep.equal({ linesBought: 1, linesLeft: 2, observationsWritten: 2, carried: { planId: next.path.split('/')[6], lines: 2 } });
      expect(amounts(next.items)).to.deep.equal([
        ['Løk', 0.75, 'pcs', 'Manual', 'Buy'],
        ['Fløte', 2, 'dl', 'Manual', 'Buy'],
      ]);
      expect(await pantry(h)).to.have.length(2);

      // Idempotent: a second closing carries nothing more.
      expect((await h.owner.post(`${h.list}/complete?unticked=keep`)).json).to.deep.equal(res.json);
      expect(amounts((await nextList(h))!.items)).to.have.length(2);

      const reopened = await h.owner.post(`${h.list}/reopen`);
      expect(reopened.status, reopened.text).to.equal(200);
      expect((await nextList(h))!.items).to.deep.equal([]);
      expect(await pantry(h)).to.deep.equal([]);
    });

    it('keep adds to a food the next week\'s list has already; reopening takes only the carried amount back', async () => {
      const h = await household();
      await tacoWeek(h);
      // The next week planned in the same household: a hand-added line there first.
      const week = await h.owner.post(`${h.base}/shopping-list/recipe`, { recipeId: (await dish(h, recipeBody('Grøt', 1, [{ displayName: 'Havre', quantity: 1, unit: 'dl' }]))).id, weekStart: NEXT_MONDAY });
      expect(week.status, week.text).to.equal(200);
      const path = `${h.base}/plans/${week.json.weeklyPlanId}/shopping-list`;
      expect((await h.owner.post(`${path}/items`, { displayName: 'Fløte', quantity: 1, unit: 'dl' })).status).to.equal(200);
      const res = await h.owner.post(`${h.list}/complete?unticked=keep&markAllBought=true`);
      expect(res.status, res.text).to.equal(200);
      // unticked decides: nothing bought by the closing.
      expect(res.json.tripSummary).to.deep.equal({ linesBought: 0, linesLeft: 3, observationsWritten: 0, carried: { planId: week.json.weeklyPlanId, lines: 3 } });
      const carried = (await h.owner.get(path)).json.items as ShoppingItem[];
      expect(amounts(carried)).to.have.deep.members([
        ['Havre', 1, 'dl', 'AddedRecipe', 'Buy'],
        ['Fløte', 3, 'dl', 'Manual', 'Buy'],
        ['Kjøttdeig', 400, 'g', 'Manual', 'Buy'],
        ['Løk', 1, 'pcs', 'Manual', 'Buy'],
      ]);
      await h.owner.post(`${h.list}/reopen`);
      const back = (await h.owner.get(path)).json.items as ShoppingItem[];
      expect(amounts(back)).to.deep.equal([
        ['Havre', 1, 'dl', 'AddedRecipe', 'Buy'],
        ['Fløte', 1, 'dl', 'Manual', 'Buy'],
      ]);
    });

    describe('under an Idempotency-Key', () => {
      const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key } });
      const keep = (h: H, key: string) => h.owner.post(`${h.list}/complete?unticked=keep`, undefined, keyed(key));
      /**
       * The taco week with the meat bought and a quarter of the onion (the onion's rest and the cream left), closed
       * with keep under a fresh key: the household, the key and the first answer.
       */
      async function closedUnderKey() {
        const h = await household();
        const { meat, onion } = await tacoWeek(h);
        expect((await tick(h, meat.id, { status: 'Purchased' })).status).to.equal(200);
        expect((await tick(h, onion.id, { status: 'Purchased', purchasedQuantity: 0.25 })).status).to.equal(200);
        const key = randomUUID();
        const first = await keep(h, key);
        expect(first.status, first.text).to.equal(200);
        expect(first.headers.get('idempotent-replayed')).to.equal(null);
        return { h, key, first };
      }
      /** The same closing sent again under its key: the first answer again, said to be a replay. */
      async function expectReplay(h: H, key: string, first: Answer) {
        const again = await keep(h, key);
        expect([again.status, again.headers.get('idempotent-replayed')], again.text).to.deep.equal([first.status, 'true']);
        expect(again.json).to.deep.equal(first.json);
        return again;
      }
      const CARRIED = [
        ['Løk', 0.75, 'pcs', 'Manual', 'Buy'],
        ['Fløte', 2, 'dl', 'Manual', 'Buy'],
      ];

      it('keep sent twice answers the first answer again, and the next week\'s list holds each carried amount once', async () => {
        const { h, key, first } = await closedUnderKey();
        const next = (await nextList(h))!;
        expect(amounts(next.items)).to.deep.equal(CARRIED);
        expect(first.json.tripSummary.carried).to.deep.equal({ planId: next.path.split('/')[6], lines: CARRIED.length });

        const again = await expectReplay(h, key, first);
        expect(again.json.tripSummary.carried).to.deep.equal(first.json.tripSummary.carried);
        expect(amounts((await nextList(h))!.items)).to.deep.equal(CARRIED);
        expect(await pantry(h)).to.have.length(2);
        expect(await pushes(h, 'receipt-reminder')).to.have.length(1);
      });

      it('a replay after a reopen answers the first closing again without closing the list; after a second closing it carries nothing more', async () => {
        const { h, key, first } = await closedUnderKey();
        expect(first.json.completedAt).to.equal(NOW.toISOString());

        server.clock.advance(60_000);
        expect((await h.owner.post(`${h.list}/reopen`)).status).to.equal(200);
        expect((await nextList(h))!.items).to.deep.equal([]);
        await expectReplay(h, key, first);
        // Run again, it would have closed the list and carried the amounts again.
        expect((await h.owner.get(h.list)).json).to.include({ completedAt: null, tripSummary: null });
        expect((await nextList(h))!.items).to.deep.equal([]);
        expect(await pantry(h)).to.deep.equal([]);

        // Closed again under another key, a minute on; the first key still answers the first closing.
        const second = await keep(h, randomUUID());
        expect(second.status, second.text).to.equal(200);
        expect(second.json.completedAt).to.equal(new Date(NOW.getTime() + 60_000).toISOString());
        expect(amounts((await nextList(h))!.items)).to.deep.equal(CARRIED);
        await expectReplay(h, key, first);
        expect(amounts((await nextList(h))!.items)).to.deep.equal(CARRIED);
        expect(await pushes(h, 'receipt-reminder')).to.have.length(2);
      });
    });

    it('bought and drop answer as markAllBought=true and false; nothing is carried; 400 on an unknown choice', async () => {
      const h = await household();
      await tacoWeek(h);
      expect((await h.owner.post(`${h.list}/complete?unticked=later`)).status).to.equal(400);
      const dropped = await h.owner.post(`${h.list}/complete?unticked=drop&markAllBought=true`);
      expect(dropped.json.tripSummary).to.deep.equal({ linesBought: 0, linesLeft: 3, observationsWritten: 0, carried: null });
      await h.owner.post(`${h.list}/reopen`);
      const bought = await h.owner.post(`${h.list}/complete?unticked=bought`);
      expect(bought.json.tripSummary).to.deep.equal({ linesBought: 3, linesLeft: 0, observationsWritten: 3, carried: null });
      expect(await nextList(h)).to.equal(null);
    });
  });

  describe('reopen', () => {
    it('removes exactly the closing\'s pantry evidence and its ticks; the household\'s ticks and other observations stay', async () => {
      const h = await household();
      const { meat, onion } = await tacoWeek(h);
      // Evidence of the household's own, not the closing's.
      const own = await h.owner.post(`${h.base}/inventory/observations`, { foodKey: 'ris', observationType: 'Purchased', quantity: 1, unit: 'kg', storageLocation: 'Pantry' });
      expect(own.status, own.text).to.equal(200);
      await tick(h, meat.id, { status: 'Purchased' });
      await tick(h, onion.id, { status: 'Purchased', purchasedQuantity: 0.5 });
      const closed = await h.owner.post(`${h.list}/complete?markAllBought=true`);
      expect(await pantry(h)).to.have.length(4);
      const res = await h.owner.post(`${h.list}/reopen`);
      expect(res.status, res.text).to.equal(200);
      expect(res.json.completedAt).to.equal(null);
      expect(res.json.tripSummary).to.equal(null);
      expect((await pantry(h)).map((o) => o.id)).to.deep.equal([own.json.observationId]);
      const items = res.json.items as ShoppingItem[];
      expect(byName(items, 'Kjøttdeig')).to.include({ status: 'Purchased', purchasedQuantity: 400 });
      expect(byName(items, 'Løk')).to.include({ status: 'Buy', purchasedQuantity: 0.5 });
      expect(byName(items, 'Fløte')).to.include({ status: 'Buy', purchasedQuantity: 0, purchasedUnit: null });
      expect(items.map((i) => i.id)).to.deep.equal((closed.json.items as ShoppingItem[]).map((i) => i.id));

      // Idempotent: reopening an open list changes nothing.
      const again = await h.owner.post(`${h.list}/reopen`);
      expect(again.status).to.equal(200);
      expect(again.json).to.deep.equal(res.json);
      expect(again.headers.get('etag')).to.equal(res.headers.get('etag'));
      expect(await pantry(h)).to.have.length(1);
    });

    it('closes again after a reopen with fresh evidence and a second reminder', async () => {
      const h = await household();
      const { meat } = await tacoWeek(h);
      await tick(h, meat.id, { status: 'Purchased' });
      await h.owner.post(`${h.list}/complete`);
      await h.owner.post(`${h.list}/reopen`);
      const res = await h.owner.post(`${h.list}/complete`);
      expect(res.json.tripSummary).to.deep.equal({ linesBought: 1, linesLeft: 2, observationsWritten: 1, carried: null });
      expect(await pantry(h)).to.have.length(1);
      expect(await pushes(h, 'receipt-reminder')).to.have.length(2);
    });

    it('reopening a list never closed changes nothing; 404 for another household\'s plan', async () => {
      const h = await household();
      await tacoWeek(h);
      const before = await h.owner.get(h.list);
      const res = await h.owner.post(`${h.list}/reopen`);
      expect(res.status).to.equal(200);
      expect(res.json).to.deep.equal(before.json);
      const other = await household();
      expect((await other.owner.post(`${other.base}/plans/${h.plan.id}/shopping-list/reopen`)).status).to.equal(404);
    });
  });

  describe('recipe to a plan\'s list', () => {
    async function pizza(h: H) {
      const sauce = await dish(h, recipeBody('Tomatsaus', 2, [{ displayName: 'Tomater', quantity: 400, unit: 'g' }]));
      return dish(h, recipeBody('Pizza', 2, [
        { displayName: 'Mozzarella', quantity: 125, unit: 'g' },
        { displayName: 'Basilikum', quantity: 1, unit: 'stk', optional: true },
        { displayName: 'Saus', quantity: 1, unit: null, baseRecipeId: sauce.id },
        { displayName: 'Deig', quantity: null, unit: null, reference: 'Pizzadeig' },
        { displayName: 'Kjøttdeig', quantity: 100, unit: 'g' },
      ]));
    }
    it('adds scaled lines tied to no day, bases expanded, optional left out, references reported; they survive regeneration', async () => {
      const h = await household();
      const { meat } = await tacoWeek(h);
      await tick(h, meat.id, { status: 'Purchased' });
      const p = await pizza(h);
      const res = await h.owner.post(`${h.list}/recipe`, { recipeId: p.id, portions: 4 });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.skippedReferences).to.deep.equal(['Pizzadeig']);
      const items = res.json.items as ShoppingItem[];
      expect(byName(items, 'Mozzarella')).to.include({ requiredQuantity: 250, unit: 'g', reasonCode: 'AddedRecipe', status: 'Buy' });
      expect(byName(items, 'Mozzarella')!.relatedPlanEntryIds).to.deep.equal([]);
      expect(byName(items, 'Mozzarella')!.addedAfterShopping).to.equal(true);
      expect(byName(items, 'Tomater')).to.include({ requiredQuantity: 800, reasonCode: 'AddedRecipe' });
      expect(byName(items, 'Basilikum')).to.equal(undefined);
      expect(items.some((i) => i.displayName === 'Deig')).to.equal(false);
      // A food already listed gets the amount on its line (a bought line opens again).
      expect(items.filter((i) => i.foodKey === meat.foodKey)).to.have.length(1);
      expect(byName(items, 'Kjøttdeig')).to.include({ requiredQuantity: 600, status: 'Buy', reasonCode: 'Planned' });

      const regenerated = (await h.owner.post(`${h.list}/generate`)).json.items as ShoppingItem[];
      expect(byName(regenerated, 'Mozzarella')).to.include({ requiredQuantity: 250, reasonCode: 'AddedRecipe' });
      expect(byName(regenerated, 'Tomater')).to.include({ requiredQuantity: 800 });
      expect(byName(regenerated, 'Kjøttdeig')).to.include({ requiredQuantity: 600 });
    });

    it('defaults portions to the recipe\'s servings; any member (a Junior) may add', async () => {
      const h = await household();
      const p = await pizza(h);
      const j = await junior(h);
      const res = await j.post(`${h.list}/recipe`, { recipeId: p.id });
      expect(res.status, res.text).to.equal(200);
      expect(byName(res.json.items, 'Mozzarella')).to.include({ requiredQuantity: 125 });
      expect(byName(res.json.items, 'Tomater')).to.include({ requiredQuantity: 400 });
    });

    it('404 recipe_not_found for another household\'s recipe, 404 for another household\'s plan, 400 on portions outside 1..100', async () => {
      const h = await household();
      const other = await household();
      const theirs = await pizza(other);
      const mine = await pizza(h);
      const res = await h.owner.post(`${h.list}/recipe`, { recipeId: theirs.id });
      expect([res.status, res.json.code]).to.deep.equal([404, 'recipe_not_found']);
      const plan = await h.owner.post(`${h.base}/plans/${other.plan.id}/shopping-list/recipe`, { recipeId: mine.id });
      expect([plan.status, plan.json.code]).to.deep.equal([404, 'plan_not_found']);
      for (const portions of [0, 101, -1]) expect((await h.owner.post(`${h.list}/recipe`, { recipeId: mine.id, portions })).status).to.equal(400);
      expect((await h.owner.post(`${h.list}/recipe`, { recipeId: mine.id, portions: 100 })).status).to.equal(200);
      expect((await h.owner.post(`${h.list}/recipe`, { recipeId: mine.id, portions: 1 })).status).to.equal(200);
    });
  });

  describe('recipe to a week\'s list', () => {
    const week = (h: Pick<H, 'base'>) => `${h.base}/shopping-list/recipe`;
    it('defaults to the household\'s current week; an unplanned week gets an empty plan and a fresh list (a Junior may do it)', async () => {
      const h = await server.household('Berg');
      const owner = h.owner;
      const r = await dish(h, recipeBody('Suppe', 2, [{ displayName: 'Gulrot', quantity: 2, unit: 'stk' }, { displayName: 'Se kraft', quantity: null, unit: null, reference: 'Kraft' }]));
      const j = await junior(h);
      const res = await j.post(week(h), { recipeId: r.id });
      expect(res.status, res.text).to.equal(200);
      const plans = (await owner.get(`${h.base}/plans?from=2026-05-01&to=2026-05-31`)).json as { id: string; weekStart: string }[];
      expect(plans.map((p) => p.weekStart)).to.deep.equal([MONDAY]);
      expect(res.json.weeklyPlanId).to.equal(plans[0]!.id);
      expect(res.json.items.map((i: ShoppingItem) => [i.displayName, i.requiredQuantity, i.reasonCode])).to.deep.equal([['Gulrot', 2, 'AddedRecipe']]);
      expect(res.json.skippedReferences).to.deep.equal(['Kraft']);
      // Any date names its week (PascalCase accepted as well).
      const later = await owner.post(week(h), { recipeId: r.id, WeekStart: '2026-05-14', Portions: 4 });
      expect(later.status, later.text).to.equal(200);
      const plans2 = (await owner.get(`${h.base}/plans?from=2026-05-01&to=2026-05-31`)).json as { id: string; weekStart: string }[];
      expect(plans2.map((p) => p.weekStart)).to.deep.equal([MONDAY, '2026-05-11']);
      expect(later.json.weeklyPlanId).to.equal(plans2[1]!.id);
      expect(byName(later.json.items, 'Gulrot')).to.include({ requiredQuantity: 4 });
    });

    it('adds to a list in progress without deriving it again or dropping anything', async () => {
      const h = await household();
      const { meat, taco } = await tacoWeek(h);
      await tick(h, meat.id, { status: 'Purchased' });
      // The week changes after the list was stored: adding must not follow it.
      await h.owner.delete(`${h.base}/plans/${h.plan.id}/days/${MONDAY}`);
      const before = (await server.runtime.deps.shoppingLists.byPlan(h.id, h.plan.id))!;
      const res = await h.owner.post(week(h), { recipeId: taco.id, weekStart: '2026-05-07', portions: 2 });
      expect(res.status, res.text).to.equal(200);
      expect(res.json.weeklyPlanId).to.equal(h.plan.id);
      const items = res.json.items as ShoppingItem[];
      expect(items.map((i) => i.id)).to.deep.equal(before.lines.map((l) => l.id));
      expect(byName(items, 'Kjøttdeig')).to.include({ requiredQuantity: 600, status: 'Buy' });
      expect(byName(items, 'Løk')).to.include({ requiredQuantity: 1.5 });
    });

    it('404 recipe_not_found for an unknown recipe, 400 on portions outside 1..100 or a bad date, 404 for a stranger', async () => {
      const h = await household();
      const r = await dish(h, recipeBody('Suppe', 2, [{ displayName: 'Gulrot', quantity: 2, unit: 'stk' }]));
      const res = await h.owner.post(week(h), { recipeId: '00000000-0000-4000-8000-000000000000' });
      expect([res.status, res.json.code]).to.deep.equal([404, 'recipe_not_found']);
      expect((await h.owner.post(week(h), { recipeId: r.id, portions: 0 })).status).to.equal(400);
      expect((await h.owner.post(week(h), { recipeId: r.id, portions: 101 })).status).to.equal(400);
      expect((await h.owner.post(week(h), { recipeId: r.id, weekStart: '2026-13-01' })).status).to.equal(400);
      const { client: stranger } = await server.signedIn();
      expect((await stranger.post(week(h), { recipeId: r.id })).status).to.equal(404);
    });
  });
});
