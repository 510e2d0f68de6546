import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { caughtUp } from '../../adapters/knex/speed/index.js';
import { AISLES } from '../../core/pantry/model.js';
import { LINE_STATUSES, PREFERENCE_FITS, REASON_CODES } from '../../core/shopping/types.js';
import { httpSuite } from '../support/http-suite.js';
import { addDish, recipeBody, type PlannedWeek, type ShoppingItem } from '../support/shopping.js';

const NOW = new Date('2026-05-04T09:00:00.000Z');
const MONDAY = '2026-05-04';
const dateOf = (i: number) => `2026-05-${String(4 + i).padStart(2, '0')}`;

const eventBody = (date: string, eventType: string) => ({ date, eventType, servingTime: null, availableCookingMinutes: null, notes: null, guests: null, memberAttendance: null });
const queriesOf = (serverTiming: string | null) => Number(/desc="(\d+) queries"/.exec(serverTiming ?? '')?.[1] ?? NaN);


httpSuite('shopping list', { now: NOW }, (server) => {
  const { clock } = server;

  const household = () => server.plannedWeek(MONDAY);
  type H = PlannedWeek;
  const dish = addDish;
  async function serve(h: H, day: number, recipeId: string, portions: number | null) {
    const res = await h.owner.put(`${h.base}/plans/${h.plan.id}/days/${dateOf(day)}`, { recipeId, portions, note: null });
    expect(res.status, res.text).to.equal(200);
  }
  /** Taco (4 servings) with a sauce base, an optional line and a reference. */
  async function tacoWeek(h: H) {
    const sauce = await dish(h, recipeBody('Saus', 4, [{ displayName: 'Fløte', quantity: 2, unit: 'dl' }]));
    const taco = await dish(
      h,
      recipeBody('Taco', 4, [
        { displayName: 'Kjøttdeig', quantity: 400, unit: 'g' },
        { displayName: 'Løk', quantity: 1, unit: 'stk' },
        { displayName: 'Ost', quantity: 100, unit: 'g', optional: true },
        { displayName: 'Saus', quantity: null, unit: null, baseRecipeId: sauce.id },
        { displayName: 'Deig', quantity: null, unit: null, reference: 'Pizzadeig' },
      ]),
    );
    await serve(h, 0, taco.id, 2);
    await serve(h, 1, taco.id, 4);
    return taco;
  }
  const byKey = (items: ShoppingItem[], foodKey: string) => items.filter((i) => i.foodKey === foodKey);
  async function pushes(h: H, kind: string) {
    return (await server.runtime.deps.pushOutbox.pending(10_000)).filter((e) => e.householdId === h.id && e.event.kind === kind);
  }

  it('derives the list on first read: scaled, bases expanded, optional-only foods apart, references skipped, merged per food', async () => {
    const h = await household();
    const taco = await tacoWeek(h);
    const res = await h.owner.get(h.list);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.include({ householdId: h.id, weeklyPlanId: h.plan.id, completedAt: null, sharingOff: false });
    expect(res.json.skippedReferences).to.deep.equal(['Pizzadeig']);
    const items = res.json.items as ShoppingItem[];
    const [meat, onion] = [taco.ingredients[0]!.foodKey, taco.ingredients[1]!.foodKey];
    expect(byKey(items, meat)).to.have.length(1);
    expect(byKey(items, meat)[0]).to.include({ requiredQuantity: 600, unit: 'g', status: 'Buy', reasonCode: 'Planned', haveQuantity: 0, isManual: false });
    expect(byKey(items, meat)[0]!.relatedPlanEntryIds).to.have.members([h.plan.days[0].id, h.plan.days[1].id]);
    expect(byKey(items, onion)[0]).to.include({ requiredQuantity: 1.5, unit: 'pcs' });
    expect(items.find((i) => i.displayName === 'Fløte')).to.include({ requiredQuantity: 3, unit: 'dl' });
    // Only the optional line wants cheese: a line of its own that does not count toward what is left to buy.
    expect(items.find((i) => i.displayName === 'Ost')).to.include({ requiredQuantity: 150, unit: 'g', status: 'Buy', reasonCode: 'OptionalOnly' });
    expect(res.json.toBuyCount).to.equal(items.length - 1);
    const counted = items.filter((i) => i.reasonCode !== 'OptionalOnly' && i.suggestedPrice !== null);
    expect(counted.length).to.be.above(0);
    expect(res.json.priceTotal).to.be.closeTo(counted.reduce((sum, i) => sum + i.suggestedPrice!, 0), 1e-9);
    expect(items.find((i) => i.displayName === 'Fløte')).to.include.keys('aisle', 'suggestedPriceSource', 'suggestedPriceIsAggregate', 'preferenceFit');
  });

  it('ticks an OptionalOnly line as any line; a closed trip leaves it out of linesLeft', async () => {
    const h = await household();
    await tacoWeek(h);
    const items = (await h.owner.get(h.list)).json.items as ShoppingItem[];
    const cheese = items.find((i) => i.reasonCode === 'OptionalOnly')!;
    const ticked = await h.owner.patch(`${h.base}/shopping-items/${cheese.id}`, { status: 'Purchased' });
    expect(ticked.json).to.include({ id: cheese.id, status: 'Purchased', reasonCode: 'OptionalOnly', purchasedQuantity: 150 });
    expect((await h.owner.patch(`${h.base}/shopping-items/${cheese.id}`, { status: 'Buy' })).json).to.include({ status: 'Buy' });
    const before = (await h.owner.get(h.list)).json;
    expect(before.toBuyCount).to.equal(items.length - 1);
    const closed = await h.owner.post(`${h.list}/complete`);
    expect(closed.status, closed.text).to.equal(200);
    expect(closed.json.tripSummary).to.deep.equal({ linesBought: 0, linesLeft: items.length - 1, observationsWritten: 0, carried: null });
  });

  it('answers a weak ETag of the stored version with private, no-cache; If-None-Match gives 304 with no body until the week changes', async () => {
    const h = await household();
    const taco = await tacoWeek(h);
    const first = await h.owner.get(h.list);
    const etag = first.headers.get('etag')!;
    expect(etag).to.equal(`W/"${first.json.id}-1"`);
    expect(first.headers.get('cache-control')).to.equal('private, no-cache');
    const again = await h.owner.get(h.list, { headers: { 'If-None-Match': etag } });
    expect([again.status, again.text]).to.deep.equal([304, '']);
    expect(again.headers.get('etag')).to.equal(etag);
    expect(again.headers.get('cache-control')).to.equal('private, no-cache');
    // Weak comparison over a list, and `*`, as well as the one tag sent back.
    for (const inm of [`"other-1", ${etag.slice(2)}`, ` W/"other-1" ,${etag}`, '*']) {
      expect((await h.owner.get(h.list, { headers: { 'If-None-Match': inm } })).status, inm).to.equal(304);
    }
    expect((await h.owner.get(h.list, { headers: { 'If-None-Match': 'W/"other-1"' } })).status).to.equal(200);
    // Eating out on Tuesday shrinks the list at once.
    expect((await h.owner.post(`${h.base}/events`, eventBody(dateOf(1), 'EatingOut'))).status).to.equal(201);
    const after = await h.owner.get(h.list, { headers: { 'If-None-Match': etag } });
    expect(after.status).to.equal(200);
    expect(after.headers.get('etag')).to.equal(`W/"${first.json.id}-2"`);
    expect(byKey(after.json.items, taco.ingredients[0]!.foodKey)[0]).to.include({ requiredQuantity: 200 });
    expect(byKey(after.json.items, taco.ingredients[0]!.foodKey)[0]!.relatedPlanEntryIds).to.deep.equal([h.plan.days[0].id]);
  });

  it('is 404 only when the plan is not the household\'s; any member reads it', async () => {
    const h = await household();
    const other = await household();
    const theirs = await other.owner.get(`${other.base}/plans/${h.plan.id}/shopping-list`);
    expect([theirs.status, theirs.json.code]).to.deep.equal([404, 'plan_not_found']);
    expect((await other.owner.get(h.list)).status).to.equal(404);
    expect((await h.owner.get(`${h.base}/plans/${randomUUID()}/shopping-list`)).status).to.equal(404);
    const empty = await h.owner.get(h.list);
    expect([empty.status, empty.json.items]).to.deep.equal([200, []]);
  });

  it('takes what the pantry likely holds off the list: covered foods go, partly covered ones say how much is there', async () => {
    const h = await household();
    const taco = await tacoWeek(h);
    const [meat, onion] = [taco.ingredients[0]!.foodKey, taco.ingredients[1]!.foodKey];
    const observe = (foodKey: string, quantity: number, unit: string) =>
      h.owner.post(`${h.base}/inventory/observations`, { foodKey, observationType: 'Purchased', quantity, unit, storageLocation: 'Fridge' });
    expect((await observe(meat, 1, 'kg')).status).to.equal(200);
    expect((await observe(onion, 1, 'stk')).status).to.equal(200);
    const items = (await h.owner.get(h.list)).json.items as ShoppingItem[];
    expect(byKey(items, meat)).to.deep.equal([]);
    expect(byKey(items, onion)[0]).to.include({ requiredQuantity: 1.5, haveQuantity: 1, reasonCode: 'PartlyInPantry' });
  });

  it('generate derives again now, keeping ticks (a grown line open for the rest) and hand-added lines, and bumps the version', async () => {
    const h = await household();
    const taco = await tacoWeek(h);
    const first = (await h.owner.get(h.list)).json;
    const meat = byKey(first.items, taco.ingredients[0]!.foodKey)[0]!;
    expect((await h.owner.patch(`${h.base}/shopping-items/${meat.id}`, { status: 'Purchased' })).status).to.equal(200);
    const added = await h.owner.post(`${h.list}/items`, { displayName: 'Dopapir' });
    expect(added.status, added.text).to.equal(200);
    await serve(h, 2, taco.id, 4);
    clock.set(new Date('2026-05-04T10:00:00.000Z'));
    const gen = await h.owner.post(`${h.list}/generate`);
    clock.set(NOW);
    expect(gen.status, gen.text).to.equal(200);
    expect(gen.json.generatedAt).to.equal('2026-05-04T10:00:00.000Z');
    const meatNow = byKey(gen.json.items, taco.ingredients[0]!.foodKey)[0]!;
    // What is bought stays bought (two packages of 400 g for 600 g); the grown need is the rest to buy, one more
    // package, and the line counts again.
    expect(meatNow).to.deep.include({ id: meat.id, status: 'Buy', purchasedQuantity: 800, requiredQuantity: 1000, remainingQuantity: 200, remaining: { quantity: 1, unit: 'pk', packageSize: { quantity: 400, unit: 'g' } } });
    // Every line of the week counts again, the hand-added Dopapir too.
    expect(gen.json.toBuyCount).to.equal(first.toBuyCount + 1);
    expect(gen.json.items.find((i: ShoppingItem) => i.id === added.json.id)).to.include({ displayName: 'Dopapir', isManual: true, reasonCode: 'Manual' });
    const read = await h.owner.get(h.list);
    expect(read.headers.get('etag')).to.equal(`W/"${first.id}-4"`);
    expect(read.json).to.deep.equal(gen.json);
  });

  describe('POST items', () => {
    it('reads amount and unit from the name, joins a food already on the list, and pushes once per add', async () => {
      const h = await household();
      const a = await h.owner.post(`${h.list}/items`, { displayName: '2 kg poteter' });
      expect(a.status, a.text).to.equal(200);
      expect(a.json).to.include({ requiredQuantity: 2, unit: 'kg', isManual: true, reasonCode: 'Manual', status: 'Buy', addedAfterShopping: false, preferenceFit: 'NotAssessed' });
      const b = await h.owner.post(`${h.list}/items`, { displayName: `500 g ${a.json.displayName}` });
      expect(b.json).to.include({ id: a.json.id, requiredQuantity: 2.5, unit: 'kg' });
      const c = await h.owner.post(`${h.list}/items`, { displayName: a.json.displayName, quantity: 2, unit: 'pakke' });
      expect(c.json.id).to.not.equal(a.json.id);
      expect(c.json).to.include({ requiredQuantity: 2, unit: 'pk' });
      const plain = await h.owner.post(`${h.list}/items`, { displayName: 'Melk' });
      expect(plain.json).to.include({ requiredQuantity: 1, unit: 'pcs', displayName: 'Melk' });
      expect((await h.owner.get(h.list)).json.items).to.have.length(3);
      expect(await pushes(h, 'list-item-added')).to.have.length(4);
    });

    it('joins a planned line, keeping the hand-added part through regeneration; a line added after ticking says so', async () => {
      const h = await household();
      const taco = await tacoWeek(h);
      const meatKey = taco.ingredients[0]!.foodKey;
      const planned = byKey((await h.owner.get(h.list)).json.items, meatKey)[0]!;
      const more = await h.owner.post(`${h.list}/items`, { displayName: 'Kjøttdeig', quantity: 0.4, unit: 'kg' });
      expect(more.json).to.include({ id: planned.id, requiredQuantity: 1000 });
      expect(byKey((await h.owner.post(`${h.list}/generate`)).json.items, meatKey)[0]).to.include({ id: planned.id, requiredQuantity: 1000 });
      await h.owner.patch(`${h.base}/shopping-items/${planned.id}`, { status: 'Purchased' });
      expect((await h.owner.post(`${h.list}/items`, { displayName: 'Salt' })).json.addedAfterShopping).to.equal(true);
    });

    it('answers 400 on an empty name and on a quantity not greater than 0 or above 100000', async () => {
      const h = await household();
      for (const body of [{ displayName: '' }, { displayName: '   ' }, { displayName: 'Melk', quantity: 0 }, { displayName: 'Melk', quantity: -1 }, { displayName: 'Melk', quantity: 100_001 }, {}]) {
        const res = await h.owner.post(`${h.list}/items`, body);
        expect([res.status, res.json.code], JSON.stringify(body)).to.deep.equal([400, 'validation_failed']);
      }
      expect((await h.owner.post(`${h.list}/items`, { displayName: 'Melk', quantity: 100_000 })).status).to.equal(200);
      expect(await pushes(h, 'list-item-added')).to.have.length(1);
    });
  });

  describe('PATCH shopping-items', () => {
    it('ticks all, part (the rest stays to buy) or in another unit; unticks; one push for the first tick of a line', async () => {
      const h = await household();
      const taco = await tacoWeek(h);
      const items = (await h.owner.get(h.list)).json.items as ShoppingItem[];
      const meat = byKey(items, taco.ingredients[0]!.foodKey)[0]!;
      const onion = byKey(items, taco.ingredients[1]!.foodKey)[0]!;
      const cream = items.find((i) => i.displayName === 'Fløte')!;
      const patch = (id: string, body: Record<string, unknown>) => h.owner.patch(`${h.base}/shopping-items/${id}`, body);

      const part = await patch(meat.id, { status: 'Purchased', purchasedQuantity: 200 });
      expect(part.status, part.text).to.equal(200);
      expect(part.json).to.include({ status: 'Buy', purchasedQuantity: 200, purchasedUnit: null });
      expect((await patch(meat.id, { status: 'Purchased', purchasedQuantity: 0.6, purchasedUnit: 'kg' })).json).to.include({ status: 'Purchased', purchasedQuantity: 600 });
      expect((await patch(meat.id, { status: 'Buy' })).json).to.include({ status: 'Buy', purchasedQuantity: 0 });
      // A whole tick buys what a shop sells: the meat comes in packages of 400 g, two of them for 600 g.
      expect((await patch(meat.id, { status: 'Purchased' })).json).to.deep.include({ status: 'Purchased', purchasedQuantity: 800, buy: { quantity: 2, unit: 'pk', packageSize: { quantity: 400, unit: 'g' } } });
      expect(await pushes(h, 'list-items-ticked')).to.have.length(1);

      // pieces ↔ grams only with the household's piece weight
      const unweighed = await patch(onion.id, { status: 'Purchased', purchasedQuantity: 300, purchasedUnit: 'g' });
      expect(unweighed.json).to.include({ status: 'Buy', purchasedQuantity: 300, purchasedUnit: 'g' });
      expect((await h.owner.put(`${h.base}/inventory/unit-weights/${encodeURIComponent(onion.foodKey)}/stk`, { grams: 150 })).status).to.equal(200);
      expect((await patch(onion.id, { status: 'Purchased', purchasedQuantity: 300, purchasedUnit: 'g' })).json).to.include({ status: 'Purchased', purchasedQuantity: 2, purchasedUnit: null });
      expect((await patch(cream.id, { status: 'Purchased', purchasedQuantity: 1, purchasedUnit: 'pk' })).json).to.include({ status: 'Buy', purchasedUnit: 'pk' });
      expect(await pushes(h, 'list-items-ticked')).to.have.length(3);
      const stored = (await h.owner.get(h.list)).json.items as ShoppingItem[];
      expect(stored.find((i) => i.id === meat.id)).to.include({ status: 'Purchased', purchasedQuantity: 800 });
    });

    it('answers 404 for another household\'s item and an unknown one; 400 on a bad body', async () => {
      const h = await household();
      const other = await household();
      const line = (await h.owner.post(`${h.list}/items`, { displayName: 'Melk' })).json;
      const theirs = await other.owner.patch(`${other.base}/shopping-items/${line.id}`, { status: 'Purchased' });
      expect([theirs.status, theirs.json.code]).to.deep.equal([404, 'shopping_item_not_found']);
      expect((await other.owner.patch(`${h.base}/shopping-items/${line.id}`, { status: 'Purchased' })).status).to.equal(404);
      expect((await h.owner.patch(`${h.base}/shopping-items/${randomUUID()}`, { status: 'Purchased' })).status).to.equal(404);
      expect((await h.owner.patch(`${h.base}/shopping-items/${line.id}`, { status: 'Gone' })).status).to.equal(400);
      expect((await h.owner.patch(`${h.base}/shopping-items/${line.id}`, { status: 'Purchased', purchasedQuantity: 0 })).status).to.equal(400);
      expect((await h.owner.get(h.list)).json.items[0]).to.include({ status: 'Buy', purchasedQuantity: 0 });
    });

    it('loses no update when two phones tick lines and add items at once', async () => {
      const h = await household();
      const names = ['Melk', 'Brød', 'Egg', 'Smør', 'Ost', 'Kaffe', 'Te', 'Ris'];
      const lines = [] as ShoppingItem[];
      for (const n of names) lines.push((await h.owner.post(`${h.list}/items`, { displayName: n })).json);
      const before = (await h.owner.get(h.list)).headers.get('etag')!;
      const results = await Promise.all([
        ...lines.map((l) => h.owner.patch(`${h.base}/shopping-items/${l.id}`, { status: 'Purchased' })),
        ...['Epler', 'Pærer', 'Bananer', 'Druer'].map((n) => h.owner.post(`${h.list}/items`, { displayName: n })),
      ]);
      expect(results.map((r) => r.status)).to.deep.equal(results.map(() => 200));
      const after = await h.owner.get(h.list);
      const items = after.json.items as ShoppingItem[];
      expect(items.filter((i) => i.status === 'Purchased').map((i) => i.id)).to.have.members(lines.map((l) => l.id));
      expect(items.filter((i) => i.status === 'Buy').map((i) => i.displayName)).to.have.members(['Epler', 'Pærer', 'Bananer', 'Druer']);
      const version = (etag: string) => Number(/-(\d+)"$/.exec(etag)![1]);
      expect(version(after.headers.get('etag')!)).to.equal(version(before) + 12);
      expect(await pushes(h, 'list-items-ticked')).to.have.length(8);
    });
  });

  describe('DELETE shopping-items', () => {
    const remove = (h: H, id: string, as = h.owner) => as.delete(`${h.base}/shopping-items/${id}`);

    it('removes a hand-added line, ticked or not, for any member (a Junior too); it stays gone when the list is derived again', async () => {
      const h = await household();
      const junior = (await h.join('Junior')).client;
      const soap = (await h.owner.post(`${h.list}/items`, { displayName: 'Oppvaskmiddel' })).json;
      const salt = (await h.owner.post(`${h.list}/items`, { displayName: 'Salt' })).json;
      const milk = (await h.owner.post(`${h.list}/items`, { displayName: '2 l melk' })).json;
      expect((await h.owner.patch(`${h.base}/shopping-items/${salt.id}`, { status: 'Purchased' })).status).to.equal(200);
      const res = await remove(h, soap.id, junior);
      expect(res.status, res.text).to.equal(204);
      expect(res.text).to.equal('');
      expect((await remove(h, salt.id)).status).to.equal(204);
      const ids = async () => ((await h.owner.get(h.list)).json.items as ShoppingItem[]).map((i) => i.id);
      expect(await ids()).to.deep.equal([milk.id]);
      expect(((await h.owner.post(`${h.list}/generate`)).json.items as ShoppingItem[]).map((i) => i.id)).to.deep.equal([milk.id]);
      const again = await remove(h, soap.id);
      expect([again.status, again.json.code]).to.deep.equal([404, 'shopping_item_not_found']);
      expect(await ids()).to.deep.equal([milk.id]);
    });

    it('removes a line a recipe added by hand (AddedRecipe)', async () => {
      const h = await household();
      const soup = await dish(h, recipeBody('Suppe', 2, [{ displayName: 'Linser', quantity: 200, unit: 'g' }]));
      const added = await h.owner.post(`${h.list}/recipe`, { recipeId: soup.id });
      expect(added.status, added.text).to.equal(200);
      const line = (added.json.items as ShoppingItem[])[0]!;
      expect(line.reasonCode).to.equal('AddedRecipe');
      expect((await remove(h, line.id)).status).to.equal(204);
      expect((await h.owner.get(h.list)).json.items).to.deep.equal([]);
    });

    it("answers 409 shopping_line_not_removable for a line the week's dishes need, also with a hand-added amount; once its dish leaves the week the hand-added rest can go", async () => {
      const h = await household();
      const taco = await tacoWeek(h);
      const meatKey = taco.ingredients[0]!.foodKey;
      const meat = byKey((await h.owner.get(h.list)).json.items, meatKey)[0]!;
      const refused = await remove(h, meat.id);
      expect([refused.status, refused.json.code], refused.text).to.deep.equal([409, 'shopping_line_not_removable']);
      expect(refused.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect((await h.owner.post(`${h.list}/items`, { displayName: 'Kjøttdeig', quantity: 100, unit: 'g' })).json.id).to.equal(meat.id);
      expect((await remove(h, meat.id)).status).to.equal(409);
      expect(byKey((await h.owner.get(h.list)).json.items, meatKey)[0]).to.include({ id: meat.id, requiredQuantity: 700 });
      // Both taco days go: the line holds only the hand-added 100 g, and is then a hand-added line.
      for (const day of [0, 1]) expect((await h.owner.delete(`${h.base}/plans/${h.plan.id}/days/${dateOf(day)}`)).status).to.equal(204);
      expect((await remove(h, meat.id)).status).to.equal(204);
      expect(byKey((await h.owner.get(h.list)).json.items, meatKey)).to.deep.equal([]);
    });

    it("answers 404 for another household's line and an unknown id, 400 for an id that is no UUID, removing nothing", async () => {
      const h = await household();
      const other = await household();
      const line = (await h.owner.post(`${h.list}/items`, { displayName: 'Melk' })).json;
      const theirs = await remove(other, line.id);
      expect([theirs.status, theirs.json.code]).to.deep.equal([404, 'shopping_item_not_found']);
      expect((await other.owner.delete(`${h.base}/shopping-items/${line.id}`)).status).to.equal(404);
      expect((await remove(h, randomUUID())).status).to.equal(404);
      const bad = await h.owner.delete(`${h.base}/shopping-items/not-a-uuid`);
      expect([bad.status, bad.json.code]).to.deep.equal([400, 'validation_failed']);
      expect(((await h.owner.get(h.list)).json.items as ShoppingItem[]).map((i) => i.id)).to.deep.equal([line.id]);
    });
  });

  it("marks lines by the household's dislikes (preferenceFit), hand-added lines too; the list's ETag follows them", async () => {
    const h = await household();
    const taco = await tacoWeek(h);
    const onionKey = taco.ingredients[1]!.foodKey;
    const first = await h.owner.get(h.list);
    expect(new Set((first.json.items as { preferenceFit: string }[]).map((i) => i.preferenceFit))).to.deep.equal(new Set(['NotAssessed']));
    const set = await h.owner.patch(h.base, { dislikes: [' løk ', 'LØK', 'koriander'] });
    expect(set.status, set.text).to.equal(200);
    expect(set.json.dislikes).to.deep.equal(['løk', 'koriander']);
    const marked = await h.owner.get(h.list, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(marked.status).to.equal(200);
    for (const i of marked.json.items as { foodKey: string; preferenceFit: string }[]) expect(i.preferenceFit, i.foodKey).to.equal(i.foodKey === onionKey ? 'Disliked' : 'Fits');
    const added = await h.owner.post(`${h.list}/items`, { displayName: 'Fersk koriander' });
    expect(added.json.preferenceFit).to.equal('Disliked');
    expect((await h.owner.post(`${h.list}/items`, { displayName: 'Salt' })).json.preferenceFit).to.equal('Fits');
    // A recipe added by hand: its lines are marked as they are added.
    const salsa = await dish(h, recipeBody('Salsa', 2, [{ displayName: 'Koriander', quantity: 1, unit: 'bunt' }, { displayName: 'Lime', quantity: 1, unit: 'stk' }]));
    const withRecipe = (await h.owner.post(`${h.list}/recipe`, { recipeId: salsa.id })).json.items as { displayName: string; reasonCode: string; preferenceFit: string }[];
    expect(withRecipe.filter((i) => i.reasonCode === 'AddedRecipe').map((i) => [i.displayName, i.preferenceFit])).to.have.deep.members([
      ['Koriander', 'Disliked'],
      ['Lime', 'Fits'],
    ]);
    expect((await h.owner.patch(h.base, { dislikes: [] })).json.dislikes).to.deep.equal([]);
    const cleared = (await h.owner.get(h.list)).json.items as { displayName: string; preferenceFit: string }[];
    expect(new Set(cleared.map((i) => i.preferenceFit))).to.deep.equal(new Set(['NotAssessed']));
    expect(cleared.map((i) => i.displayName)).to.include('Fersk koriander');
  });

  describe('shopping settings', () => {
    const settingsOf = (h: H) => `${h.base}/shopping-settings`;

    it('any member reads them, adults change each alone (an empty body changes nothing); every list answer echoes them and its ETag follows', async () => {
      const h = await household();
      const junior = (await h.join('Junior')).client;
      const defaults = { sharingOff: false, priceCatalogueOn: true };
      expect((await junior.get(settingsOf(h))).json).to.deep.equal(defaults);
      const first = await h.owner.get(h.list);
      expect(first.json).to.include(defaults);
      const refused = await junior.patch(settingsOf(h), { sharingOff: true });
      expect([refused.status, refused.json.code]).to.deep.equal([403, 'adults_only']);
      const off = await h.owner.patch(settingsOf(h), { sharingOff: true });
      expect([off.status, off.json], off.text).to.deep.equal([200, { sharingOff: true, priceCatalogueOn: true }]);
      expect((await h.owner.patch(settingsOf(h), {})).json).to.deep.equal({ sharingOff: true, priceCatalogueOn: true });
      // The list did not change, its answer did: the old ETag no longer matches.
      const after = await h.owner.get(h.list, { headers: { 'If-None-Match': first.headers.get('etag')! } });
      expect(after.status).to.equal(200);
      expect(after.json).to.include({ id: first.json.id, sharingOff: true, priceCatalogueOn: true });
      expect(after.headers.get('etag')).to.not.equal(first.headers.get('etag'));
      expect((await h.owner.get(h.list, { headers: { 'If-None-Match': after.headers.get('etag')! } })).status).to.equal(304);
      expect((await junior.post(`${h.list}/items`, { displayName: 'Salt' })).status).to.equal(200);
      expect((await h.owner.post(`${h.list}/generate`)).json).to.include({ sharingOff: true, priceCatalogueOn: true });
      expect((await h.owner.patch(settingsOf(h), { sharingOff: false })).json).to.deep.equal(defaults);
    });

    it('refuses a body of the wrong shape and strangers, changing nothing', async () => {
      const h = await household();
      const other = await household();
      for (const body of [{ sharingOff: 'yes' }, { priceCatalogueOn: null }, { sharingOff: 1 }]) {
        const res = await h.owner.patch(settingsOf(h), body);
        expect([res.status, res.json.code], JSON.stringify(body)).to.deep.equal([400, 'validation_failed']);
      }
      expect((await other.owner.patch(settingsOf(h), { sharingOff: true })).status).to.equal(404);
      expect((await other.owner.get(settingsOf(h))).status).to.equal(404);
      expect((await h.owner.get(settingsOf(h))).json).to.deep.equal({ sharingOff: false, priceCatalogueOn: true });
    });

    it('priceCatalogueOn false leaves every suggested price out of the list at once; on again brings them back', async () => {
      const h = await household();
      await tacoWeek(h);
      const priced = (await h.owner.get(h.list)).json;
      expect(priced.priceTotal).to.be.a('number');
      expect((priced.items as ShoppingItem[]).some((i) => i.suggestedPrice !== null)).to.equal(true);
      expect((await h.owner.patch(settingsOf(h), { priceCatalogueOn: false })).status).to.equal(200);
      const bare = (await h.owner.get(h.list)).json;
      expect(bare).to.include({ priceCatalogueOn: false, priceTotal: null });
      for (const i of bare.items) expect(i, i.displayName).to.include({ suggestedPrice: null, suggestedProductName: null, suggestedPriceSource: 'None', suggestedPriceIsAggregate: false });
      expect((bare.items as ShoppingItem[]).map((i) => i.id)).to.deep.equal((priced.items as ShoppingItem[]).map((i) => i.id));
      expect((await h.owner.patch(settingsOf(h), { priceCatalogueOn: true })).status).to.equal(200);
      expect((await h.owner.get(h.list)).json).to.deep.include({ priceCatalogueOn: true, priceTotal: priced.priceTotal });
    });
  });

  it('documents its operations in the OpenAPI document and takes PascalCase request properties', async () => {
    const doc = (await server.client().get('/api/v1/openapi.json')).json;
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(ops).to.include.members(['getShoppingList', 'generateShoppingList', 'addShoppingItem', 'updateShoppingItem', 'removeShoppingItem', 'getShoppingSettings', 'updateShoppingSettings']);
    // Every value of the line fields' value lists, in the list's own schema.
    const item = doc.paths['/api/v1/households/{householdId}/plans/{planId}/shopping-list'].get.responses['200'].content['application/json'].schema.properties.items.items.properties;
    expect([item.aisle.enum, item.reasonCode.enum, item.preferenceFit.enum, item.status.enum, item.suggestedPriceSource.enum]).to.deep.equal([
      [...AISLES],
      [...REASON_CODES],
      [...PREFERENCE_FITS],
      [...LINE_STATUSES],
      ['None', 'FoodTable'],
    ]);
    const h = await household();
    const line = (await h.owner.post(`${h.list}/items`, { DisplayName: 'Mel', Quantity: 2, Unit: 'kg' })).json;
    expect(line).to.include({ requiredQuantity: 2, unit: 'kg' });
    const res = await h.owner.patch(`${h.base}/shopping-items/${line.id}`, { Status: 'Purchased', PurchasedQuantity: 500, PurchasedUnit: 'g' });
    expect(res.json).to.include({ status: 'Buy', purchasedQuantity: 0.5 });
  });

  it('answers 304 on a current list without deriving: fewer statements than a deriving read, none of them writes', async () => {
    const h = await household();
    await tacoWeek(h);
    const first = await h.owner.get(h.list);
    const etag = first.headers.get('etag')!;
    const deriving = queriesOf(first.headers.get('server-timing'));
    // On Postgres the notifications of the writes above may still be on their way; one arriving after the next
    // read kept the list's state would empty the cache again and the read after it would count 1, not 0.
    await caughtUp(server.runtime.db.knex);
    const cached = await h.owner.get(h.list, { headers: { 'If-None-Match': etag } });
    expect(cached.status).to.equal(304);
    const cheap = queriesOf(cached.headers.get('server-timing'));
    // The list's stamp and both revisions in one read; the session and the caller's membership come from the auth
    // cache (adapters/knex/speed/read-cache.ts), as the read before left them there.
    expect(cheap).to.equal(1);
    expect(cheap).to.be.below(deriving);
    // That read is kept for the household (adapters/knex/speed/read-cache.ts): the next 304 reads nothing.
    const fromMemory = await h.owner.get(h.list, { headers: { 'If-None-Match': etag } });
    expect([fromMemory.status, queriesOf(fromMemory.headers.get('server-timing'))]).to.deep.equal([304, 0]);
    // A pantry write the list does not depend on: the next read derives again, finds the same content (still 304,
    // same version) and records the new revision, so the read after it is cheap again.
    await h.owner.post(`${h.base}/inventory/observations`, { foodKey: 'kaffe', observationType: 'Purchased', quantity: 1, unit: 'pk', storageLocation: 'Pantry' });
    const rederived = await h.owner.get(h.list, { headers: { 'If-None-Match': etag } });
    expect([rederived.status, rederived.headers.get('etag')]).to.deep.equal([304, etag]);
    expect(queriesOf(rederived.headers.get('server-timing'))).to.be.above(cheap);
    const again = await h.owner.get(h.list, { headers: { 'If-None-Match': etag } });
    expect([again.status, queriesOf(again.headers.get('server-timing'))]).to.deep.equal([304, cheap]);
    // Without If-None-Match a current list is answered from the store, as stored.
    const plain = await h.owner.get(h.list);
    expect([plain.status, plain.headers.get('etag')]).to.deep.equal([200, etag]);
    expect(plain.json.items).to.deep.equal(first.json.items);
  });

  it('follows the pantry\'s decay with time alone: a fridge row that is no longer trusted stops covering the need', async () => {
    const h = await household();
    const taco = await tacoWeek(h);
    const meat = taco.ingredients[0]!.foodKey;
    await h.owner.post(`${h.base}/inventory/observations`, { foodKey: meat, observationType: 'Purchased', quantity: 1, unit: 'kg', storageLocation: 'Fridge' });
    const covered = await h.owner.get(h.list);
    expect(byKey(covered.json.items, meat)).to.deep.equal([]);
    try {
      // A fridge row halves its confidence every 4 days: after 4 days and a bit it is Uncertain (below 0.5).
      clock.advance(4 * 86_400_000 + 3_600_000);
      const res = await h.owner.get(h.list, { headers: { 'If-None-Match': covered.headers.get('etag')! } });
      expect(res.status).to.equal(200);
      expect(byKey(res.json.items, meat)[0]).to.include({ requiredQuantity: 600, reasonCode: 'Planned', haveQuantity: 0 });
    } finally {
      clock.set(NOW);
    }
  });

  it('keeps the references of recipes added by hand through every later derivation', async () => {
    const h = await household();
    await tacoWeek(h);
    const pizza = await dish(h, recipeBody('Pizza', 2, [{ displayName: 'Mel', quantity: 500, unit: 'g' }, { displayName: 'Fyll', quantity: null, unit: null, reference: 'Pizzafyll' }]));
    const added = await h.owner.post(`${h.list}/recipe`, { recipeId: pizza.id, portions: 2 });
    expect(added.status, added.text).to.equal(200);
    expect(added.json.skippedReferences).to.have.members(['Pizzadeig', 'Pizzafyll']);
    expect((await h.owner.post(`${h.base}/events`, eventBody(dateOf(1), 'EatingOut'))).status).to.equal(201);
    expect((await h.owner.get(h.list)).json.skippedReferences).to.have.members(['Pizzadeig', 'Pizzafyll']);
    expect((await h.owner.post(`${h.list}/generate`)).json.skippedReferences).to.have.members(['Pizzadeig', 'Pizzafyll']);
  });

  /** Every statement sent to the database while `call` runs (BEGIN and COMMIT included), and the call's answer. */
  async function statementsOf<T>(call: () => Promise<T>): Promise<{ answer: T; statements: number }> {
    let statements = 0;
    const count = () => void (statements += 1);
    server.runtime.db.knex.on('query', count);
    try {
      const answer = await call();
      return { answer, statements };
    } finally {
      server.runtime.db.knex.removeListener('query', count);
    }
  }

  it('derives a week of 7 dinners with bounded statements: as many as for one dinner, at most 10', async () => {
    const h = await household();
    const base = await dish(h, recipeBody('Grunnsaus', 4, [{ displayName: 'Tomat', quantity: 2, unit: 'bx' }]));
    const dinners = [];
    for (let i = 0; i < 7; i++) {
      dinners.push(
        await dish(h, recipeBody(`Middag ${i}`, 4, [{ displayName: `Rett ${i}`, quantity: 500, unit: 'g' }, { displayName: 'Løk', quantity: 1, unit: 'stk' }, { displayName: 'Saus', quantity: 1, unit: null, baseRecipeId: base.id }])),
      );
    }
    // Both generates write: the first makes the list, the second changes and adds lines.
    await serve(h, 0, dinners[0]!.id, null);
    const first = await statementsOf(() => h.owner.post(`${h.list}/generate`));
    const one = queriesOf(first.answer.headers.get('server-timing'));
    for (let i = 1; i < 7; i++) await serve(h, i, dinners[i]!.id, null);
    const week = await statementsOf(() => h.owner.post(`${h.list}/generate`));
    expect(week.answer.json.items).to.have.length(9);
    const seven = queriesOf(week.answer.headers.get('server-timing'));
    expect(seven).to.equal(one);
    expect(seven).to.be.at.most(10);
    // Server-Timing counts the statements that answer; BEGIN and COMMIT are sent too, and are within the bound.
    expect(week.statements).to.equal(first.statements);
    expect(week.statements).to.be.at.most(10);
  });

  it('generates the lists of 21 dinners over three weeks (210 lines) in at most 10 statements each, also when a day changes', async () => {
    const h = await household();
    const later = await Promise.all(['2026-05-11', '2026-05-18'].map(async (d) => (await h.owner.put(`${h.base}/plans/week/${d}`)).json as { id: string; days: { date: string }[] }));
    let total = 0;
    for (const [w, plan] of [h.plan, ...later].entries()) {
      const dishes: string[] = [];
      for (let d = 0; d < 7; d++) {
        const ingredients = Array.from({ length: 10 }, (_, i) => ({ displayName: `Vare ${w}-${d}-${i}`, quantity: 100 + i, unit: 'g' }));
        dishes.push((await dish(h, recipeBody(`Middag ${w}-${d}`, 4, ingredients))).id);
        const res = await h.owner.put(`${h.base}/plans/${plan.id}/days/${plan.days[d]!.date}`, { recipeId: dishes[d], portions: 4, note: null });
        expect(res.status, res.text).to.equal(200);
      }
      const list = `${h.base}/plans/${plan.id}/shopping-list`;
      const made = await statementsOf(() => h.owner.post(`${list}/generate`));
      expect(made.answer.status, made.answer.text).to.equal(200);
      const items = made.answer.json.items as ShoppingItem[];
      total += items.length;
      expect(queriesOf(made.answer.headers.get('server-timing'))).to.be.at.most(10);
      expect(made.statements).to.be.at.most(10);
      // Twice the portions on the first day: that dish's ten lines double, every line keeps its id.
      expect((await h.owner.put(`${h.base}/plans/${plan.id}/days/${plan.days[0]!.date}`, { recipeId: dishes[0], portions: 8, note: null })).status).to.equal(200);
      const again = await statementsOf(() => h.owner.post(`${list}/generate`));
      expect(again.statements).to.be.at.most(10);
      const after = again.answer.json.items as ShoppingItem[];
      expect(after.map((i) => i.id)).to.have.members(items.map((i) => i.id));
      const doubled = after.filter((i) => i.requiredQuantity !== items.find((x) => x.id === i.id)!.requiredQuantity);
      expect(doubled.map((i) => i.displayName)).to.have.members(Array.from({ length: 10 }, (_, i) => `Vare ${w}-0-${i}`));
      expect((await h.owner.get(list)).json.items).to.deep.equal(after);
    }
    expect(total).to.equal(210);
  });
});
