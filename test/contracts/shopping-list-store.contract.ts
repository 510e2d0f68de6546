import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { MealEvent } from '../../core/events/types.js';
import type { Ingredient } from '../../core/recipes/types.js';
import type { ShoppingLine, ShoppingListContent } from '../../core/shopping/types.js';
import type { Backend } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

const shoppingLine = (over: Partial<ShoppingLine> = {}): ShoppingLine => ({
  id: randomUUID(),
  foodKey: 'kjøttdeig',
  displayName: 'Kjøttdeig',
  requiredQuantity: 612.5,
  unit: 'g',
  extraQuantity: 12.5,
  status: 'Purchased',
  purchasedQuantity: 0.25,
  purchasedUnit: 'kg',
  reasonCode: 'PartlyInPantry',
  haveQuantity: 100,
  relatedPlanEntryIds: [randomUUID(), randomUUID()],
  isManual: true,
  addedAfterShopping: true,
  aisle: 'Meat',
  suggestedPrice: 59.9,
  suggestedProductName: 'Kjøttdeig 400 g',
  suggestedPriceSource: 'FoodTable',
  suggestedPriceIsAggregate: true,
  tickNotified: true,
  preferenceFit: 'Disliked',
  ...over,
});
const plain = (over: Partial<ShoppingLine> = {}): ShoppingLine =>
  shoppingLine({
    status: 'Buy', purchasedQuantity: 0, purchasedUnit: null, reasonCode: 'Planned', haveQuantity: 0, relatedPlanEntryIds: [], isManual: false, addedAfterShopping: false,
    suggestedPrice: null, suggestedProductName: null, suggestedPriceSource: 'None', suggestedPriceIsAggregate: false, tickNotified: false, extraQuantity: 0, ...over,
  });
const content = (lines: ShoppingLine[], over: Partial<ShoppingListContent> = {}): ShoppingListContent => ({
  generatedAt: at('2026-05-04T09:00:00.123Z'),
  completedAt: null,
  skippedReferences: [],
  addedReferences: [],
  trip: null,
  lines,
  madeFor: {},
  wouldAdd: [],
  staleSince: null,
  ...over,
});

export function shoppingListStoreContract(backend: Backend): void {
  storeSuite(backend, 'ShoppingListStore', (s) => {
    async function plan() {
      const { id: householdId } = await ownedHousehold(s);
      const p = await s.plans.getOrCreate(householdId, '2026-05-04', { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: at('2026-05-01T00:00:00.000Z') });
      return { householdId, planId: p.id };
    }
    const write = (c: ShoppingListContent) => () => ({ write: c, result: null });

    it('round-trips a list with its lines in order: numbers, nulls, booleans, arrays, dates to the millisecond, and a package known or not', async () => {
      const { householdId, planId } = await plan();
      const listId = randomUUID();
      const c = content([shoppingLine({ pack: { packUnit: 'pk', quantity: 0.4, unit: 'kg' } }), plain({ foodKey: 'løk', displayName: 'Løk', unit: 'pcs', requiredQuantity: 1.5 })], {
        completedAt: at('2026-05-05T18:30:00.456Z'),
        skippedReferences: ['Pizzadeig', 'Saus'],
        madeFor: { '2026-05-04': { recipeId: randomUUID(), portions: 4 }, '2026-05-06': { recipeId: randomUUID(), portions: 0 } },
        wouldAdd: [{ foodKey: 'løk', displayName: 'Løk', quantity: 0.75, unit: 'pcs' }],
        staleSince: at('2026-05-05T07:15:00.789Z'),
      });
      const { list } = await s.shoppingLists.change(householdId, planId, { listId }, write(c));
      const expected = { id: listId, householdId, planId, version: 1, derivation: null, ...c };
      expect(list).to.deep.equal(expected);
      expect(await s.shoppingLists.byPlan(householdId, planId)).to.deep.equal(expected);
      expect(await s.shoppingLists.byLine(householdId, c.lines[1]!.id)).to.deep.equal(expected);
    });

    it('round-trips the person changes (dates to the millisecond, a removed line as it was) and finds a list by a line removed from it', async () => {
      const { householdId, planId } = await plan();
      const other = await plan();
      const kept = plain({ foodKey: 'melk', displayName: 'Melk', unit: 'l' });
      const gone = shoppingLine({ pack: { packUnit: 'pk', quantity: 400, unit: 'g' } });
      const personChanges = [
        { lineId: kept.id, displayName: 'Melk', change: 'Purchased' as const, at: at('2026-05-05T10:00:00.001Z'), by: randomUUID() },
        { lineId: gone.id, displayName: gone.displayName, change: 'Removed' as const, at: at('2026-05-05T10:01:30.999Z'), by: randomUUID(), line: gone },
      ];
      const c = content([kept], { personChanges });
      const listId = randomUUID();
      const { list } = await s.shoppingLists.change(householdId, planId, { listId }, write(c));
      const expected = { id: listId, householdId, planId, version: 1, derivation: null, ...c };
      expect(list).to.deep.equal(expected);
      expect(await s.shoppingLists.byPlan(householdId, planId)).to.deep.equal(expected);
      expect(await s.shoppingLists.byRemovedLine(householdId, gone.id)).to.deep.equal(expected);
      // A line still on the list, a line never on it, another household's or a malformed id: none.
      expect(await s.shoppingLists.byRemovedLine(householdId, kept.id)).to.equal(null);
      expect(await s.shoppingLists.byRemovedLine(householdId, randomUUID())).to.equal(null);
      expect(await s.shoppingLists.byRemovedLine(other.householdId, gone.id)).to.equal(null);
      expect(await s.shoppingLists.byRemovedLine(householdId, '%')).to.equal(null);
      // A write without person changes clears them; the list then reads back without the field.
      await s.shoppingLists.change(householdId, planId, { listId }, write(content([kept])));
      expect(await s.shoppingLists.byPlan(householdId, planId)).to.not.have.property('personChanges');
      expect(await s.shoppingLists.byRemovedLine(householdId, gone.id)).to.equal(null);
    });

    it('round-trips the closing\'s trip record and clears it when a write sets none', async () => {
      const { householdId, planId } = await plan();
      const l = plain();
      const trip = {
        summary: { linesBought: 1, linesLeft: 0, observationsWritten: 1 },
        observationIds: [randomUUID(), randomUUID()],
        closingTicks: [{ lineId: l.id, status: 'Buy' as const, purchasedQuantity: 0.5, purchasedUnit: 'kg' }, { lineId: randomUUID(), status: 'Buy' as const, purchasedQuantity: 0, purchasedUnit: null }],
      };
      const c = content([l], { completedAt: at('2026-05-05T18:30:00.456Z'), trip });
      const { list } = await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, write(c));
      expect(list?.trip).to.deep.equal(trip);
      expect((await s.shoppingLists.byPlan(householdId, planId))?.trip).to.deep.equal(trip);
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, write(content([l])));
      expect((await s.shoppingLists.byPlan(householdId, planId))?.trip).to.equal(null);
    });

    it('bumps the version on every write, not when the change writes nothing, and hands back the result', async () => {
      const { householdId, planId } = await plan();
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, write(content([plain()])));
      const seen: (number | null)[] = [];
      const none = await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, (current) => {
        seen.push(current?.version ?? null);
        return { write: null, result: 'kept' };
      });
      expect([none.result, none.list?.version, seen]).to.deep.equal(['kept', 1, [1]]);
      const next = await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, write(content([])));
      expect([next.list?.version, next.list?.lines]).to.deep.equal([2, []]);
      expect((await s.shoppingLists.byPlan(householdId, planId))?.version).to.equal(2);
    });

    it('records a derivation without moving the version, keeps it through content writes, and answers it in the stamp', async () => {
      const { householdId, planId } = await plan();
      expect(await s.shoppingLists.stamp(householdId, planId)).to.equal(null);
      const listId = randomUUID();
      const d1 = { from: '7/2026-05-01T00:00:00.000Z', until: at('2026-05-06T12:34:56.789Z') };
      await s.shoppingLists.change(householdId, planId, { listId }, () => ({ write: content([plain()]), result: null, derivation: d1 }));
      expect(await s.shoppingLists.stamp(householdId, planId)).to.deep.equal({ id: listId, version: 1, completedAt: null, derivation: d1 });
      const d2 = { from: '8/2026-05-01T00:00:00.000Z', until: at('2026-05-07T00:00:00.000Z') };
      const restamped = await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: null, result: null, derivation: d2 }));
      expect([restamped.list?.version, restamped.list?.derivation]).to.deep.equal([1, d2]);
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, write(content([plain(), plain({ foodKey: 'ost' })], { completedAt: at('2026-05-05T18:00:00.000Z') })));
      expect(await s.shoppingLists.stamp(householdId, planId)).to.deep.equal({ id: listId, version: 2, completedAt: at('2026-05-05T18:00:00.000Z'), derivation: d2 });
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: null, result: null, derivation: null }));
      expect((await s.shoppingLists.byPlan(householdId, planId))?.derivation).to.equal(null);
      expect(await s.shoppingLists.stamp(householdId, randomUUID())).to.equal(null);
    });

    it('lands the effects of a change with its write: pantry observations added and removed, pushes recorded', async () => {
      const { householdId, planId } = await plan();
      const observation = (foodKey: string) => ({
        id: randomUUID(), householdId, foodKey, displayName: foodKey, observationType: 'Purchased' as const, quantity: 2, unit: 'pcs', storageLocation: null, confidence: null, bestBefore: null, observedAt: at('2026-05-05T18:00:00.000Z'),
      });
      const [egg, milk] = [observation('egg'), observation('melk')];
      const push = { id: randomUUID(), householdId, event: { kind: 'receipt-reminder' as const, planId, listId: 'l', accountId: 'a' }, createdAt: at('2026-05-05T18:00:00.000Z') };
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: content([plain()]), result: null, effects: { addObservations: [egg, milk], pushes: [push] } }));
      expect((await s.pantry.ofHousehold(householdId)).map((o) => o.id).sort()).to.deep.equal([egg.id, milk.id].sort());
      expect((await s.pushOutbox.pending(10)).map((e) => e.id)).to.deep.equal([push.id]);
      // Without a write, effects do not land.
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: null, result: null, effects: { removeObservations: [egg.id] } }));
      expect(await s.pantry.ofHousehold(householdId)).to.have.length(2);
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: content([]), result: null, effects: { removeObservations: [egg.id] } }));
      expect((await s.pantry.ofHousehold(householdId)).map((o) => o.id)).to.deep.equal([milk.id]);
    });

    it('writes nothing when an effect fails: the list keeps its version and content', async () => {
      const { householdId, planId } = await plan();
      const taken = { id: randomUUID(), householdId, foodKey: 'egg', displayName: 'Egg', observationType: 'Purchased' as const, quantity: 2, unit: 'pcs', storageLocation: null, confidence: null, bestBefore: null, observedAt: at('2026-05-05T18:00:00.000Z') };
      await s.pantry.add(taken);
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, write(content([plain()])));
      let failed = false;
      try {
        await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: content([]), result: null, effects: { addObservations: [taken] } }));
      } catch {
        failed = true;
      }
      const list = await s.shoppingLists.byPlan(householdId, planId);
      expect([failed, list?.version, list?.lines.length]).to.deep.equal([true, 1, 1]);
      expect(await s.pantry.ofHousehold(householdId)).to.have.length(1);
    });

    it("changes another list of the household in the same transaction: both, made when missing, or neither when an effect fails", async () => {
      const { householdId, planId } = await plan();
      const next = await s.plans.getOrCreate(householdId, '2026-05-11', { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: at('2026-05-01T00:00:00.000Z') });
      const carried = plain({ foodKey: 'løk', displayName: 'Løk', reasonCode: 'Manual', extraQuantity: 1, requiredQuantity: 1 });
      const nextListId = randomUUID();
      const alsoChange = (lines: ShoppingLine[]) => ({ planId: next.id, fresh: { listId: nextListId }, decide: (current: { lines: readonly ShoppingLine[] } | null) => content([...(current?.lines ?? []), ...lines]) });
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: content([plain()]), result: null, effects: { alsoChange: alsoChange([carried]) } }));
      const made = await s.shoppingLists.byPlan(householdId, next.id);
      expect([made?.id, made?.version, made?.lines]).to.deep.equal([nextListId, 1, [carried]]);
      // An effect that fails (an observation id taken): neither list changes.
      const taken = { id: randomUUID(), householdId, foodKey: 'egg', displayName: 'Egg', observationType: 'Purchased' as const, quantity: 2, unit: 'pcs', storageLocation: null, confidence: null, bestBefore: null, observedAt: at('2026-05-05T18:00:00.000Z') };
      await s.pantry.add(taken);
      let failed = false;
      try {
        await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: content([]), result: null, effects: { addObservations: [taken], alsoChange: alsoChange([plain({ foodKey: 'melk' })]) } }));
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
      expect((await s.shoppingLists.byPlan(householdId, planId))?.version).to.equal(1);
      expect((await s.shoppingLists.byPlan(householdId, next.id))?.lines.map((l) => l.foodKey)).to.deep.equal(['løk']);
      // A decision to leave the other list as it is writes nothing there.
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: content([]), result: null, effects: { alsoChange: { planId: next.id, fresh: { listId: randomUUID() }, decide: () => null } } }));
      expect((await s.shoppingLists.byPlan(householdId, planId))?.version).to.equal(2);
      expect((await s.shoppingLists.byPlan(householdId, next.id))?.version).to.equal(1);
    });

    it('keeps every read inside the household', async () => {
      const mine = await plan();
      const theirs = await plan();
      const l = plain();
      await s.shoppingLists.change(mine.householdId, mine.planId, { listId: randomUUID() }, write(content([l])));
      expect(await s.shoppingLists.byPlan(theirs.householdId, mine.planId)).to.equal(null);
      expect(await s.shoppingLists.byLine(theirs.householdId, l.id)).to.equal(null);
      expect(await s.shoppingLists.byLine(mine.householdId, randomUUID())).to.equal(null);
      expect(await s.shoppingLists.byPlan(mine.householdId, theirs.planId)).to.equal(null);
    });

    it("reads every list of a household at once, each as byPlan answers it, and none of another household", async () => {
      const mine = await plan();
      const theirs = await plan();
      const week = (weekStart: string) => s.plans.getOrCreate(mine.householdId, weekStart, { planId: randomUUID(), dayIds: Array.from({ length: 7 }, () => randomUUID()), at: at('2026-05-01T00:00:00.000Z') });
      const second = await week('2026-05-11');
      const third = await week('2026-05-18');
      expect(await s.shoppingLists.ofHousehold(mine.householdId)).to.deep.equal([]);
      // Ids in a known order, so that the list with no lines lies between two with lines.
      const listId = (first: string) => `${first}${randomUUID().slice(1)}`;
      await s.shoppingLists.change(mine.householdId, mine.planId, { listId: listId('1') }, write(content([shoppingLine(), plain({ foodKey: 'melk' }), plain({ foodKey: 'brød' })])));
      await s.shoppingLists.change(mine.householdId, second.id, { listId: listId('2') }, write(content([])));
      await s.shoppingLists.change(mine.householdId, third.id, { listId: listId('3') }, write(content([plain({ foodKey: 'ost' }), plain({ foodKey: 'egg' })])));
      await s.shoppingLists.change(theirs.householdId, theirs.planId, { listId: randomUUID() }, write(content([plain()])));
      const all = await s.shoppingLists.ofHousehold(mine.householdId);
      const byPlan = await Promise.all([mine.planId, second.id, third.id].map((id) => s.shoppingLists.byPlan(mine.householdId, id)));
      expect([...all].sort((a, b) => (a.planId < b.planId ? -1 : 1))).to.deep.equal([...byPlan].sort((a, b) => (a!.planId < b!.planId ? -1 : 1)));
      expect(all.map((l) => l.lines.map((x) => x.foodKey).join(' ')).sort()).to.deep.equal(['', 'kjøttdeig melk brød', 'ost egg']);
    });

    it('applies concurrent changes one after the other: none is lost, the first list is made once', async () => {
      const { householdId, planId } = await plan();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, (current) => ({
            write: content([...(current?.lines ?? []), plain({ foodKey: `mat ${i}` })]),
            result: i,
          })),
        ),
      );
      expect(new Set(results.map((r) => r.list?.id)).size).to.equal(1);
      const list = (await s.shoppingLists.byPlan(householdId, planId))!;
      expect(list.version).to.equal(8);
      expect(list.lines.map((l) => l.foodKey).sort()).to.deep.equal(Array.from({ length: 8 }, (_, i) => `mat ${i}`));
    });

    it('forgets the lists of a deleted household', async () => {
      const { householdId, planId } = await plan();
      const l = plain();
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, write(content([l])));
      await s.households.delete(householdId);
      expect(await s.shoppingLists.byPlan(householdId, planId)).to.equal(null);
      expect(await s.shoppingLists.byLine(householdId, l.id)).to.equal(null);
    });

    it('answers a list\'s state in one read: membership, stamp and revisions as their own stores answer them', async () => {
      const { householdId, planId } = await plan();
      const owner = (await s.households.byId(householdId))!.members[0]!.accountId!;
      const empty = await s.shoppingLists.state(householdId, planId, owner);
      expect(empty).to.deep.equal({ member: true, stamp: null, householdRevision: await s.revisions.of(householdId), foodTableSyncedAt: null, settings: { sharingOff: false, priceCatalogueOn: true } });
      expect((await s.shoppingLists.state(householdId, planId, randomUUID())).member).to.equal(false);
      const derivation = { from: '3/unsynced', until: at('2026-05-06T10:00:00.500Z') };
      await s.shoppingLists.change(householdId, planId, { listId: randomUUID() }, () => ({ write: content([plain()]), result: null, derivation }));
      await s.foodTable.replaceAll([], at('2026-05-04T04:41:00.123Z'));
      expect(await s.shoppingLists.state(householdId, planId, owner)).to.deep.equal({
        member: true,
        stamp: await s.shoppingLists.stamp(householdId, planId),
        householdRevision: await s.revisions.of(householdId),
        foodTableSyncedAt: at('2026-05-04T04:41:00.123Z'),
        settings: { sharingOff: false, priceCatalogueOn: true },
      });
      await s.households.update(householdId, { sharingOff: true, priceCatalogueOn: false }, at('2026-05-04T05:00:00.000Z'));
      expect((await s.shoppingLists.state(householdId, planId, owner)).settings).to.deep.equal({ sharingOff: true, priceCatalogueOn: false });
      expect(await s.shoppingLists.state(randomUUID(), planId, owner)).to.deep.include({ stamp: null, member: false, settings: null });
    });

    it('reads a list\'s inputs at once, each part as its own store answers it: the week\'s events, the dishes and the bases they reach', async () => {
      const { householdId, planId } = await plan();
      const t0 = at('2026-05-01T10:00:00.123Z');
      const ingredient = (displayName: string, over: Partial<Ingredient> = {}): Ingredient => ({ displayName, foodKey: displayName.toLowerCase(), quantity: 2.5, unit: 'dl', optional: false, baseRecipeId: null, reference: null, ...over });
      const recipe = async (title: string, ingredients: Ingredient[]) => {
        const r = await s.recipes.create(householdId, randomUUID(), { title, servings: 4, activeMinutes: 20, totalMinutes: null, steps: ['Stek'], ingredients, sourceUrl: null, imageUrl: null }, t0);
        if (!('id' in r)) throw new Error('recipe refused');
        return r.id;
      };
      const deepest = await recipe('Krydder', [ingredient('Salt', { quantity: null, unit: null })]);
      const sauce = await recipe('Saus', [ingredient('Fløte'), ingredient('Krydder', { baseRecipeId: deepest, quantity: null, unit: null })]);
      const taco = await recipe('Taco', [ingredient('Kjøttdeig', { quantity: 400, unit: 'g' }), ingredient('Ost', { optional: true }), ingredient('Saus', { baseRecipeId: sauce, quantity: 1 }), ingredient('Deig', { reference: 'Pizzadeig' })]);
      await recipe('Ikke planlagt', [ingredient('Mel')]);
      await s.plans.setDay(householdId, planId, '2026-05-05', { recipeId: taco, portionsOverride: 3, note: 'fredag' }, t0);
      await s.plans.setDay(householdId, planId, '2026-05-06', { recipeId: sauce, portionsOverride: null, note: null }, t0);
      const memberId = randomUUID();
      await s.households.addMember(householdId, { id: memberId, displayName: 'Ola', role: 'Junior', accountId: null, createdAt: t0 });
      const event = (date: string, participants: MealEvent['participants']): MealEvent => ({
        id: randomUUID(), householdId, date, eventType: 'Guests', servingTime: '17:30', availableCookingMinutes: 30, notes: null, participants, createdAt: t0, updatedAt: t0,
      });
      await s.events.create([
        event('2026-05-05', [{ id: randomUUID(), householdMemberId: memberId, isPresent: false, guestType: null, guestCount: 0, dietaryNotes: 'ingen løk', avoids: ['løk'] }, { id: randomUUID(), householdMemberId: null, isPresent: true, guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: [] }]),
        event('2026-05-10', []),
        event('2026-05-11', []),
      ]);
      await s.pantry.add({ id: randomUUID(), householdId, foodKey: 'fløte', displayName: 'Fløte', observationType: 'Purchased', quantity: 3, unit: 'dl', storageLocation: 'Fridge', confidence: 0.9, bestBefore: null, observedAt: t0 });
      await s.pantry.add({ id: randomUUID(), householdId, foodKey: 'ost', displayName: null, observationType: 'Seen', quantity: null, unit: null, storageLocation: null, confidence: null, bestBefore: null, observedAt: at('2026-04-30T10:00:00.000Z') });
      await s.pantryMerges.merge({ householdId, fromKey: 'lettmelk', toKey: 'melk', fromDisplayName: 'Lettmelk', toDisplayName: 'Melk', mergedAt: t0 });
      await s.unitWeights.put({ householdId, foodKey: 'egg', unit: 'pcs', displayName: 'Egg', grams: 62.5, updatedAt: t0 });
      await s.foodTable.replaceAll([], at('2026-05-04T04:41:00.123Z'));
      const other = await ownedHousehold(s);
      await s.recipes.create(other.id, randomUUID(), { title: 'Fremmed', servings: 2, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [ingredient('Fisk')], sourceUrl: null, imageUrl: null }, t0);

      const inputs = await s.shoppingLists.inputs(householdId, planId);
      const planRow = (await s.plans.byId(householdId, planId))!;
      expect(inputs).to.deep.equal({
        household: await s.households.byId(householdId),
        householdRevision: await s.revisions.of(householdId),
        foodTableSyncedAt: at('2026-05-04T04:41:00.123Z'),
        plan: planRow,
        events: await s.events.eventsBetween(householdId, '2026-05-04', '2026-05-10'),
        recipes: inputs.recipes,
        observations: await s.pantry.ofHousehold(householdId),
        merges: await s.pantryMerges.activeMerges(householdId),
        unitWeights: await s.unitWeights.list(householdId, null),
      });
      expect(inputs.events).to.have.length(2);
      // The pantry as it is now on every read, also after a write to it (a process may hold the log between reads).
      const removed = inputs.observations[0]!;
      await s.pantry.remove(householdId, removed.id);
      await s.pantry.add({ ...removed, id: randomUUID(), quantity: 4 });
      expect((await s.shoppingLists.inputs(householdId, planId)).observations).to.deep.equal(await s.pantry.ofHousehold(householdId));
      expect((await s.shoppingLists.inputs(householdId, planId)).observations).to.have.length(2);
      expect([...inputs.recipes].sort((a, b) => a.title.localeCompare(b.title))).to.deep.equal(await s.recipes.byIds(householdId, [deepest, sauce, taco]).then((rs) => rs.sort((a, b) => a.title.localeCompare(b.title))));
      // Another household's plan: no plan, no events, no recipes; its own household and pantry as they are.
      const foreign = await s.shoppingLists.inputs(other.id, planId);
      expect([foreign.plan, foreign.events, foreign.recipes]).to.deep.equal([null, [], []]);
      expect(foreign.household).to.deep.equal(await s.households.byId(other.id));
      expect(await s.shoppingLists.inputs(randomUUID(), planId)).to.deep.include({ household: null, householdRevision: null, plan: null });
    });
  });
}
