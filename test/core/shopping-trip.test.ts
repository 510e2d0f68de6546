import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Account } from '../../core/accounts/types.js';
import { createHousehold } from '../../core/households/households.js';
import { ensureWeekPlan } from '../../core/plans/plans.js';
import { createRecipe } from '../../core/recipes/recipes.js';
import { addRecipeLines, addRecipeToPlanList, addRecipeToWeekList } from '../../core/shopping/add-recipe.js';
import { reconcile, type DerivedLine } from '../../core/shopping/derive.js';
import { addShoppingItem, getShoppingList, updateShoppingItem } from '../../core/shopping/lists.js';
import { boughtWhole, joined, remainingBuyOf, remainingOf, settled } from '../../core/shopping/line-amounts.js';
import { closeTrip, completeShoppingTrip, reopenShoppingTrip, reopenTrip } from '../../core/shopping/trip.js';
import type { ShoppingLine, ShoppingList } from '../../core/shopping/types.js';
import { domain } from './support.js';

const AT = new Date('2026-05-06T09:00:00.000Z');
const line = (over: Partial<ShoppingLine>): ShoppingLine => ({
  id: randomUUID(), foodKey: 'mat', displayName: 'Mat', requiredQuantity: 4, unit: 'pcs', extraQuantity: 0, status: 'Buy', purchasedQuantity: 0, purchasedUnit: null,
  reasonCode: 'Planned', haveQuantity: 1, relatedPlanEntryIds: [], isManual: false, addedAfterShopping: false, aisle: 'Other', suggestedPrice: null,
  suggestedProductName: null, suggestedPriceSource: 'None', suggestedPriceIsAggregate: false, tickNotified: false, preferenceFit: 'NotAssessed', ...over,
});
const list = (lines: ShoppingLine[], over: Partial<ShoppingList> = {}): ShoppingList => ({
  id: 'l', householdId: 'h', planId: 'p', version: 3, generatedAt: new Date(0), completedAt: null, skippedReferences: ['Deig'], addedReferences: [], trip: null, derivation: null, lines, madeFor: {}, wouldAdd: [], staleSince: null, ...over,
});
const counter = () => {
  let n = 0;
  return () => `id-${++n}`;
};

describe('a line\'s amounts (pure): what is bought stays bought, what is still needed is the remainder', () => {
  it('the remainder is the need less the pantry less the basket; a purchase in a unit that does not convert takes nothing off', () => {
    expect(remainingOf(line({ requiredQuantity: 4, haveQuantity: 1, purchasedQuantity: 1 }))).to.equal(2);
    expect(remainingOf(line({ requiredQuantity: 4, haveQuantity: 1, purchasedQuantity: 5, status: 'Purchased' }))).to.equal(0);
    expect(remainingOf(line({ requiredQuantity: 4, haveQuantity: 1, purchasedQuantity: 300, purchasedUnit: 'g' }))).to.equal(3);
    expect(remainingBuyOf(line({ requiredQuantity: 26, haveQuantity: 0, unit: 'dl', purchasedQuantity: 6 }))).to.deep.equal({ quantity: 2, unit: 'l', packageSize: null });
  });

  it('bought whole: what was in the basket plus what a shop sells for the rest, in the line\'s unit', () => {
    expect(boughtWhole(line({ requiredQuantity: 1.75, haveQuantity: 0 }))).to.equal(2);
    expect(boughtWhole(line({ requiredQuantity: 10.5, haveQuantity: 0, unit: 'dl' }))).to.equal(11);
    expect(boughtWhole(line({ requiredQuantity: 0.333, haveQuantity: 0, unit: 'kg' }))).to.equal(0.35);
    expect(boughtWhole(line({ requiredQuantity: 26, haveQuantity: 0, unit: 'dl', purchasedQuantity: 6 }))).to.equal(26);
    expect(boughtWhole(line({ requiredQuantity: 4, haveQuantity: 1, purchasedQuantity: 300, purchasedUnit: 'g' }))).to.equal(3);
    expect(boughtWhole(line({ requiredQuantity: 1.5, haveQuantity: 0, unit: 'fedd' }))).to.equal(2);
    // Nothing left: what is in the basket; a "to taste" line buys nothing.
    expect(boughtWhole(line({ requiredQuantity: 1.75, haveQuantity: 0, status: 'Purchased', purchasedQuantity: 2 }))).to.equal(2);
    expect(boughtWhole(line({ requiredQuantity: 0, haveQuantity: 0 }))).to.equal(0);
  });

  it('a line\'s status follows its amounts when its need changes; a to-taste tick and an unconverted purchase stay as they are', () => {
    const bought = line({ requiredQuantity: 4, haveQuantity: 0, status: 'Purchased', purchasedQuantity: 4 });
    expect(settled(bought)).to.equal(bought);
    expect(settled({ ...bought, requiredQuantity: 6 })).to.include({ status: 'Buy', purchasedQuantity: 4 });
    expect(settled(line({ requiredQuantity: 4, haveQuantity: 0, purchasedQuantity: 4 }))).to.include({ status: 'Purchased' });
    const tasted = line({ requiredQuantity: 0, haveQuantity: 0, status: 'Purchased' });
    expect(settled(tasted)).to.equal(tasted);
    const salt = line({ requiredQuantity: 0, haveQuantity: 0 });
    expect(settled(salt)).to.equal(salt);
    const unconverted = line({ requiredQuantity: 1, haveQuantity: 0, purchasedQuantity: 300, purchasedUnit: 'g' });
    expect(settled(unconverted)).to.equal(unconverted);
  });

  it('an amount that joins a line adds to the need and the hand-added part, keeps the basket, and opens the line only for a rest', () => {
    const milk = line({ requiredQuantity: 6, haveQuantity: 0, unit: 'dl', status: 'Purchased', purchasedQuantity: 6, tickNotified: true });
    expect(joined(milk, 20, true)).to.include({ requiredQuantity: 26, extraQuantity: 20, purchasedQuantity: 6, status: 'Buy', addedAfterShopping: true, tickNotified: true });
    // Two pieces bought for 1.75: a quarter more still fits in the basket.
    const cucumber = line({ requiredQuantity: 1.75, haveQuantity: 0, status: 'Purchased', purchasedQuantity: 2 });
    expect(joined(cucumber, 0.25, false)).to.include({ requiredQuantity: 2, status: 'Purchased', addedAfterShopping: false });
  });
});

describe('shopping trip (pure)', () => {
  const bought = line({ foodKey: 'melk', status: 'Purchased', purchasedQuantity: 2, unit: 'l' });
  const part = line({ foodKey: 'løk', status: 'Buy', purchasedQuantity: 300, purchasedUnit: 'g' });
  const open = line({ foodKey: 'ris', requiredQuantity: 4, haveQuantity: 1 });

  it('closes: completedAt, one Purchased observation per line with a purchase (in the unit said), summary counts', () => {
    const { content, observations } = closeTrip(list([bought, part, open]), false, AT, counter());
    expect(content.completedAt).to.equal(AT);
    expect(content.lines).to.deep.equal([bought, part, open]);
    expect(observations.map((o) => [o.id, o.foodKey, o.observationType, o.quantity, o.unit, o.observedAt])).to.deep.equal([
      ['id-1', 'melk', 'Purchased', 2, 'l', AT],
      ['id-2', 'løk', 'Purchased', 300, 'g', AT],
    ]);
    expect(content.trip).to.deep.equal({ summary: { linesBought: 1, linesLeft: 2, observationsWritten: 2 }, observationIds: ['id-1', 'id-2'], closingTicks: [] });
    expect(content.skippedReferences).to.deep.equal(['Deig']);
  });

  it('markAllBought ticks every Buy line whole (need less the pantry) and records its earlier state', () => {
    const { content, observations } = closeTrip(list([bought, part, open]), true, AT, counter());
    expect(content.lines.map((l) => [l.status, l.purchasedQuantity, l.purchasedUnit])).to.deep.equal([
      ['Purchased', 2, null],
      ['Purchased', 3, null],
      ['Purchased', 3, null],
    ]);
    expect(content.trip?.closingTicks).to.deep.equal([
      { lineId: part.id, status: 'Buy', purchasedQuantity: 300, purchasedUnit: 'g' },
      { lineId: open.id, status: 'Buy', purchasedQuantity: 0, purchasedUnit: null },
    ]);
    expect(observations).to.have.length(3);
    expect(content.trip?.summary).to.deep.equal({ linesBought: 3, linesLeft: 0, observationsWritten: 3 });
  });

  it('reopens: earlier state of the closing\'s ticks back, household ticks kept, the observations to remove answered; open: null', () => {
    const closed = closeTrip(list([bought, part, open]), true, AT, counter()).content;
    const reopened = reopenTrip(list([...closed.lines], { completedAt: AT, trip: closed.trip }))!;
    expect(reopened.content.lines).to.deep.equal([bought, part, open]);
    expect(reopened.content.completedAt).to.equal(null);
    expect(reopened.content.trip).to.equal(null);
    expect(reopened.observationIds).to.deep.equal(['id-1', 'id-2', 'id-3']);
    expect(reopenTrip(list([bought]))).to.equal(null);
  });

  it('adds a recipe\'s lines: into a convertible line of the food (reopening it), else AddedRecipe lines; to-taste lines skipped', () => {
    const derived = (foodKey: string, requiredQuantity: number, unit: string): DerivedLine => ({
      foodKey, displayName: foodKey, requiredQuantity, unit, reasonCode: 'Planned', haveQuantity: 0, relatedPlanEntryIds: ['r'], aisle: 'Other',
      suggestedPrice: null, suggestedProductName: null, suggestedPriceSource: 'None', suggestedPriceIsAggregate: false, preferenceFit: 'NotAssessed',
    });
    const lines = addRecipeLines(list([bought, open]), [derived('melk', 5, 'dl'), derived('ost', 200, 'g'), derived('salt', 0, 'pcs')], () => null, counter());
    expect(lines[0]).to.include({ requiredQuantity: 4.5, extraQuantity: 0.5, status: 'Buy', addedAfterShopping: true, purchasedQuantity: 2 });
    expect(lines[1]).to.deep.equal(open);
    expect(lines[2]).to.include({ id: 'id-1', foodKey: 'ost', requiredQuantity: 200, extraQuantity: 200, reasonCode: 'AddedRecipe', isManual: false, addedAfterShopping: true });
    expect(lines[2]!.relatedPlanEntryIds).to.deep.equal([]);
    expect(lines).to.have.length(3);
  });

  it('keeps AddedRecipe lines (and their reason) when the list is derived again, and the trip record', () => {
    const added = line({ foodKey: 'ost', requiredQuantity: 200, extraQuantity: 200, reasonCode: 'AddedRecipe', haveQuantity: 0 });
    const trip = { summary: { linesBought: 0, linesLeft: 1, observationsWritten: 0 }, observationIds: [], closingTicks: [] };
    const next = reconcile(list([added], { trip }), { lines: [], fitOf: () => 'NotAssessed', packOf: () => null, skippedReferences: [], pantryCounted: [] }, counter(), AT, true)!;
    expect(next.lines).to.deep.equal([added]);
    expect(next.trip).to.deep.equal(trip);
  });
});

type R<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };
function must<T>(r: R<T>): T {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
}
const errorOf = (r: R<unknown>) => (r.ok ? null : r.error);

describe('shopping trip (use cases, memory)', () => {
  async function setup() {
    const { deps } = domain();
    const owner: Account = {
      id: randomUUID(), email: `${randomUUID()}@example.com`, emailConfirmed: true, displayName: 'Kari', language: 'nb', passwordHash: null, securityStamp: randomUUID(),
      createdAt: new Date(0), updatedAt: new Date(0),
    };
    await deps.accounts.create({ ...owner });
    const h = must(await createHousehold(deps, owner, { name: 'Hansen' }));
    const plan = must(await ensureWeekPlan(deps, owner, h.id, '2026-05-04'));
    return { deps, owner, h, plan };
  }

  it('completes once (observations, one reminder), reopens exactly, both idempotent', async () => {
    const { deps, owner, h, plan } = await setup();
    const added = must(await addShoppingItem(deps, owner, h.id, plan.id, { displayName: '2 kg poteter' }));
    must(await updateShoppingItem(deps, owner, h.id, added.id, { status: 'Purchased' }));
    const done = must(await completeShoppingTrip(deps, owner, h.id, plan.id, { markAllBought: false }));
    expect(done.list.trip?.summary).to.deep.equal({ linesBought: 1, linesLeft: 0, observationsWritten: 1 });
    const again = must(await completeShoppingTrip(deps, owner, h.id, plan.id, { markAllBought: true }));
    expect(again.list).to.deep.equal(done.list);
    expect(await deps.pantry.ofHousehold(h.id)).to.have.length(1);
    expect((await deps.pushOutbox.pending(100)).filter((e) => e.event.kind === 'receipt-reminder').map((e) => e.event)).to.deep.equal([
      { kind: 'receipt-reminder', planId: plan.id, listId: done.list.id, accountId: owner.id },
    ]);
    const reopened = must(await reopenShoppingTrip(deps, owner, h.id, plan.id));
    expect(reopened.list.completedAt).to.equal(null);
    expect(reopened.list.lines[0]).to.include({ status: 'Purchased', purchasedQuantity: 2 });
    expect(await deps.pantry.ofHousehold(h.id)).to.deep.equal([]);
    const twice = must(await reopenShoppingTrip(deps, owner, h.id, plan.id));
    expect(twice.list.version).to.equal(reopened.list.version);
  });

  it('adds a recipe to a plan list and to a week list (unplanned week: an empty plan); recipe-not-found otherwise', async () => {
    const { deps, owner, h, plan } = await setup();
    const r = must(await createRecipe(deps, owner, h.id, {
      title: 'Suppe', servings: 2, activeMinutes: null, totalMinutes: null, steps: [],
      ingredients: [{ displayName: 'Gulrot', quantity: 2, unit: 'stk', optional: false, baseRecipeId: null, reference: null }],
    }));
    const toPlan = must(await addRecipeToPlanList(deps, owner, h.id, plan.id, { recipeId: r.id, portions: 4 }));
    expect(toPlan.list.lines.map((l) => [l.displayName, l.requiredQuantity, l.reasonCode])).to.deep.equal([['Gulrot', 4, 'AddedRecipe']]);
    expect(must(await getShoppingList(deps, owner, h.id, plan.id)).list.lines).to.have.length(1);
    const toWeek = must(await addRecipeToWeekList(deps, owner, h.id, { recipeId: r.id, weekStart: '2026-06-03' }));
    expect((await deps.plans.byId(h.id, toWeek.list.planId))?.weekStart).to.equal('2026-06-01');
    expect(errorOf(await addRecipeToPlanList(deps, owner, h.id, plan.id, { recipeId: randomUUID() }))).to.deep.equal({ type: 'recipe-not-found' });
    expect(errorOf(await addRecipeToWeekList(deps, owner, h.id, { recipeId: randomUUID() }))).to.deep.equal({ type: 'recipe-not-found' });
  });
});
