import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Account } from '../../core/accounts/types.js';
import { createHousehold } from '../../core/households/households.js';
import type { PantryRow, UnitWeight } from '../../core/pantry/types.js';
import { ensureWeekPlan, setPlanDay } from '../../core/plans/plans.js';
import { createRecipe, type IngredientInput } from '../../core/recipes/recipes.js';
import type { Ingredient, Recipe } from '../../core/recipes/types.js';
import { deriveList, heldDays, madeForOf, reconcile, wouldAddOf, type DeriveInput } from '../../core/shopping/derive.js';
import { addShoppingItem, generateShoppingList, getShoppingList, householdPacksOf, remainingOf, updateShoppingItem } from '../../core/shopping/lists.js';
import { createEvent } from '../../core/events/events.js';
import type { ShoppingList } from '../../core/shopping/types.js';
import { domain } from './support.js';

const ing = (displayName: string, foodKey: string, quantity: number | null, unit: string | null, over: Partial<Ingredient> = {}): Ingredient => ({
  displayName, foodKey, quantity, unit, optional: false, baseRecipeId: null, reference: null, ...over,
});
const dish = (id: string, servings: number, ingredients: Ingredient[]): Recipe => ({
  id, householdId: 'h', title: id, servings, activeMinutes: null, totalMinutes: null, steps: [], ingredients, sourceUrl: null, imageUrl: null, tags: [], image: null, createdAt: new Date(0), updatedAt: new Date(0),
});
const day = (id: string, recipeId: string | null, portions: number, cookedAtHome = true) => ({
  id, date: '2026-05-04', recipeId, recipeTitle: null, portions, portionsOverride: null as number | null, note: null, cookedAtHome, avoids: [], eventIds: [],
});
const pantryRow = (foodKey: string, estimatedQuantity: number, unit: string, group: PantryRow['group'] = 'LikelyAvailable'): PantryRow => ({
  foodKey, displayName: foodKey, estimatedQuantity, unit, confidence: 1, storageLocation: 'Fridge', usePriority: 'Normal', lastEvidenceAt: new Date(0), aisle: 'Other', asksForDate: false, lastEvidenceKind: 'Purchased', group, bestBefore: null,
});
const weight = (foodKey: string, unit: string, grams: number): UnitWeight => ({ householdId: 'h', foodKey, unit, displayName: foodKey, grams, updatedAt: new Date(0) });
const input = (days: ReturnType<typeof day>[], recipes: Recipe[], over: Partial<DeriveInput> = {}): DeriveInput => ({
  plan: { days },
  recipes: new Map(recipes.map((r) => [r.id, r])),
  pantry: [],
  gramsPerPiece: () => null,
  prices: new Map(),
  dislikes: [],
  ...over,
});

describe('shopping list derivation (domain)', () => {
  const sauce = dish('sauce', 2, [ing('Fløte', 'fløte', 1, 'dl'), ing('Basilikum', 'basilikum', 1, 'bunt', { optional: true })]);
  const pasta = dish('pasta', 4, [
    ing('Pasta', 'pasta', 400, 'g'),
    ing('Løk', 'løk', 2, 'stk'),
    ing('Parmesan', 'parmesan', 50, 'g', { optional: true }),
    ing('Saus', 'saus', 2, null, { baseRecipeId: 'sauce' }),
    ing('Se pizzadeig', 'se pizzadeig', null, null, { reference: 'Pizzadeig' }),
  ]);
  const soup = dish('soup', 2, [ing('Pasta', 'pasta', 0.1, 'kg'), ing('Løk', 'løk', 300, 'g')]);

  it('scales by portions over servings, expands bases scaled, lists optional-only foods as OptionalOnly and reports references', () => {
    const d = deriveList(input([day('mon', 'pasta', 2)], [pasta, sauce]));
    expect(d.skippedReferences).to.deep.equal(['Pizzadeig']);
    const by = Object.fromEntries(d.lines.map((l) => [l.foodKey, l]));
    expect(Object.keys(by).sort()).to.deep.equal(['basilikum', 'fløte', 'løk', 'parmesan', 'pasta']);
    // Optional lines, scaled as any line, also those of a base: half a 4-serving dish, 2 batches of the sauce.
    expect(by['parmesan']).to.include({ requiredQuantity: 25, unit: 'g', reasonCode: 'OptionalOnly' });
    expect(by['basilikum']).to.include({ requiredQuantity: 1, unit: 'bunt', reasonCode: 'OptionalOnly' });
    expect(by['pasta']).to.include({ requiredQuantity: 200, unit: 'g', reasonCode: 'Planned', haveQuantity: 0, suggestedPriceSource: 'None' });
    expect(by['løk']).to.include({ requiredQuantity: 1, unit: 'pcs' });
    // 2 batches of a 2-serving sauce for half a 4-serving dish: 0.5 × 2 × 1 dl
    expect(by['fløte']).to.include({ requiredQuantity: 1, unit: 'dl' });
    expect(by['fløte']!.relatedPlanEntryIds).to.deep.equal(['mon']);
  });

  it('adds no optional amount to a food a required line needs; an optional base makes every line of it optional; the pantry covers optional foods too', () => {
    const garnish = dish('garnish', 1, [ing('Løk', 'løk', 1, 'stk'), ing('Persille', 'persille', 1, 'bunt')]);
    const plate = dish('plate', 2, [
      ing('Løk', 'løk', 2, 'stk'),
      ing('Løk', 'løk', 5, 'stk', { optional: true }),
      ing('Pynt', 'pynt', 1, null, { baseRecipeId: 'garnish', optional: true }),
      ing('Se saus', 'se saus', null, null, { reference: 'Saus', optional: true }),
    ]);
    const d = deriveList(input([day('mon', 'plate', 2)], [plate, garnish]));
    expect(d.lines.map((l) => [l.foodKey, l.requiredQuantity, l.reasonCode])).to.deep.equal([
      ['løk', 2, 'Planned'],
      ['persille', 1, 'OptionalOnly'],
    ]);
    // An optional reference is nothing the dish needs: not reported.
    expect(d.skippedReferences).to.deep.equal([]);
    const covered = deriveList(input([day('mon', 'plate', 2)], [plate, garnish], { pantry: [pantryRow('persille', 1, 'bunt')] }));
    expect(covered.lines.map((l) => l.foodKey)).to.deep.equal(['løk']);
    const partly = deriveList(input([day('mon', 'plate', 4)], [plate, garnish], { pantry: [pantryRow('persille', 1, 'bunt')] }));
    expect(partly.lines.find((l) => l.foodKey === 'persille')).to.include({ requiredQuantity: 2, haveQuantity: 1, reasonCode: 'OptionalOnly' });
  });

  it("marks each line by the household's dislikes: Disliked or Fits; NotAssessed while it has said nothing", () => {
    const plain = deriveList(input([day('mon', 'pasta', 2)], [pasta, sauce]));
    expect(new Set(plain.lines.map((l) => l.preferenceFit))).to.deep.equal(new Set(['NotAssessed']));
    const d = deriveList(input([day('mon', 'pasta', 2)], [pasta, sauce], { dislikes: ['løk', 'Basilikum'] }));
    expect(Object.fromEntries(d.lines.map((l) => [l.foodKey, l.preferenceFit]))).to.deep.equal({ basilikum: 'Disliked', fløte: 'Fits', løk: 'Disliked', parmesan: 'Fits', pasta: 'Fits' });
    expect(d.fitOf({ displayName: 'Rødløk', foodKey: 'rødløk' })).to.equal('Disliked');
  });

  it('leaves closed days and days without a dish out, and merges a food over days and convertible units', () => {
    const d = deriveList(input([day('mon', 'pasta', 4), day('tue', 'soup', 2), day('wed', 'pasta', 0, false), day('thu', null, 4)], [pasta, sauce, soup]));
    const pasta_ = d.lines.filter((l) => l.foodKey === 'pasta');
    expect(pasta_).to.have.length(1);
    expect(pasta_[0]).to.include({ requiredQuantity: 500, unit: 'g' });
    expect(pasta_[0]!.relatedPlanEntryIds).to.deep.equal(['mon', 'tue']);
    // pieces and grams stay apart without the household's piece weight …
    expect(d.lines.filter((l) => l.foodKey === 'løk').map((l) => [l.requiredQuantity, l.unit])).to.deep.equal([[300, 'g'], [2, 'pcs']]);
    // … and merge with it
    const weighed = deriveList(input([day('mon', 'pasta', 4), day('tue', 'soup', 2)], [pasta, sauce, soup], { gramsPerPiece: (k) => (k === 'løk' ? 150 : null) }));
    expect(weighed.lines.filter((l) => l.foodKey === 'løk').map((l) => [l.requiredQuantity, l.unit])).to.deep.equal([[4, 'pcs']]);
  });

  it('takes the pantry off: covered foods go, partly covered are PartlyInPantry; Uncertain rows and other units do not count', () => {
    const pantry = [pantryRow('pasta', 1, 'kg'), pantryRow('løk', 1, 'stk', 'UseSoon'), pantryRow('fløte', 5, 'dl', 'Uncertain')];
    const d = deriveList(input([day('mon', 'pasta', 4)], [pasta, sauce], { pantry }));
    const by = Object.fromEntries(d.lines.map((l) => [l.foodKey, l]));
    expect(by['pasta']).to.equal(undefined);
    expect(by['løk']).to.include({ requiredQuantity: 2, haveQuantity: 1, reasonCode: 'PartlyInPantry' });
    expect(by['fløte']).to.include({ requiredQuantity: 2, haveQuantity: 0, reasonCode: 'Planned' });
    const other = deriveList(input([day('mon', 'pasta', 4)], [pasta, sauce], { pantry: [pantryRow('pasta', 3, 'pk')] }));
    expect(other.lines.find((l) => l.foodKey === 'pasta')).to.include({ requiredQuantity: 400, haveQuantity: 0 });
  });

  it('carries prices when the provider has them', () => {
    const prices = new Map([['pasta', { foodKey: 'pasta', price: 24.9, unit: 'pk', packageSize: 500, chain: 'Kiwi', productName: 'Pasta 500 g', isAggregate: true, source: 'food-table' as const }]]);
    const d = deriveList(input([day('mon', 'pasta', 4)], [pasta, sauce], { prices }));
    expect(d.lines.find((l) => l.foodKey === 'pasta')).to.include({ suggestedPrice: 24.9, suggestedPriceSource: 'FoodTable', suggestedPriceIsAggregate: true, suggestedProductName: 'Pasta 500 g' });
  });

  it('knows a line\'s package: the household\'s own size first, else the one its list price names', () => {
    const price = (unit: string, packageSize: number | null) => new Map([['pasta', { foodKey: 'pasta', price: 24.9, unit, packageSize, chain: 'Kiwi', productName: 'Pasta', isAggregate: false, source: 'food-table' as const }]]);
    const week = [day('mon', 'pasta', 4)];
    const packOfPasta = (over: Partial<DeriveInput>) => deriveList(input(week, [pasta, sauce], over)).lines.find((l) => l.foodKey === 'pasta')!.pack;
    expect(packOfPasta({ prices: price('g', 500) })).to.deep.equal({ packUnit: 'pk', quantity: 500, unit: 'g' });
    expect(packOfPasta({ prices: price('pk', 500) })).to.equal(undefined);
    const own = householdPacksOf([weight('pasta', 'pakke', 1000), weight('pasta', 'stk', 5)], []);
    expect(packOfPasta({ prices: price('g', 500), packOf: own })).to.deep.equal({ packUnit: 'pk', quantity: 1000, unit: 'g' });
    expect(packOfPasta({ packOf: own })).to.deep.equal({ packUnit: 'pk', quantity: 1000, unit: 'g' });
  });

  it('reads the household\'s package sizes from its unit weights of package units, a merged food\'s from the food it went into', () => {
    const merged = [{ householdId: 'h', fromKey: 'tomatboks', toKey: 'hakkede-tomat', fromDisplayName: 'Tomatboks', toDisplayName: 'Hakkede tomater', mergedAt: new Date(0) }];
    const packs = householdPacksOf([weight('hakkede-tomat', 'boks', 400), weight('hakkede-tomat', 'pk', 390), weight('løk', 'stk', 150), weight('mel', 'flaske', 0)], merged);
    expect(packs('hakkede-tomat')).to.deep.equal({ packUnit: 'bx', quantity: 400, unit: 'g' });
    expect(packs('tomatboks')).to.deep.equal({ packUnit: 'bx', quantity: 400, unit: 'g' });
    expect([packs('løk'), packs('mel'), packs('salt')]).to.deep.equal([null, null, null]);
  });

  it('keeps ticks of lines whose food and unit survive (a grown one open for the rest) and hand-added amounts; unchanged content writes nothing', () => {
    let n = 0;
    const newId = () => `id-${++n}`;
    const at = new Date('2026-05-04T09:00:00.000Z');
    const first = reconcile(null, deriveList(input([day('mon', 'pasta', 4)], [pasta, sauce])), newId, at, false)!;
    const stored: ShoppingList = { ...first, id: 'list', householdId: 'h', planId: 'p', version: 1, derivation: null };
    const pastaLine = first.lines.find((l) => l.foodKey === 'pasta')!;
    const ticked: ShoppingList = {
      ...stored,
      lines: [
        ...stored.lines.map((l) => (l.id === pastaLine.id ? { ...l, status: 'Purchased' as const, purchasedQuantity: 400, tickNotified: true } : l)),
        { ...pastaLine, id: 'manual', foodKey: 'dopapir', displayName: 'Dopapir', unit: 'pk', requiredQuantity: 1, extraQuantity: 1, isManual: true, reasonCode: 'Manual' as const, relatedPlanEntryIds: [] },
      ],
    };
    expect(reconcile(ticked, deriveList(input([day('mon', 'pasta', 4)], [pasta, sauce])), newId, at, false)).to.equal(null);
    const later = new Date('2026-05-05T09:00:00.000Z');
    const again = reconcile(ticked, deriveList(input([day('mon', 'pasta', 4), day('tue', 'soup', 2)], [pasta, sauce, soup])), newId, later, false)!;
    expect(again.generatedAt).to.equal(later);
    // What is bought stays bought; the grown need opens the line again for the rest.
    const grown = again.lines.find((l) => l.foodKey === 'pasta')!;
    expect(grown).to.include({ id: pastaLine.id, status: 'Buy', purchasedQuantity: 400, requiredQuantity: 500, tickNotified: true });
    expect(remainingOf(grown)).to.equal(100);
    expect(again.lines.find((l) => l.id === 'manual')).to.include({ displayName: 'Dopapir', requiredQuantity: 1, isManual: true, reasonCode: 'Manual' });
    const gone = reconcile(ticked, deriveList(input([], [])), newId, later, true)!;
    expect(gone.lines.map((l) => l.id)).to.deep.equal(['manual']);
  });
});

describe('the week asks before buying more (domain)', () => {
  const stew = dish('stew', 4, [ing('Kjøttdeig', 'kjøttdeig', 400, 'g'), ing('Løk', 'løk', 2, 'stk')]);
  const at = (date: string, recipeId: string | null, portions: number, over: { portionsOverride?: number | null; cookedAtHome?: boolean } = {}) => ({
    ...day(date, recipeId, portions),
    date,
    ...over,
  });

  it('holds a day at the portions the list was made for while its dish stays; drops, new dishes and overrides apply', () => {
    const made = madeForOf([at('2026-05-04', 'stew', 2), at('2026-05-05', 'stew', 4), at('2026-05-06', null, 3)]);
    expect(made).to.deep.equal({ '2026-05-04': { recipeId: 'stew', portions: 2 }, '2026-05-05': { recipeId: 'stew', portions: 4 } });
    const now = [
      at('2026-05-04', 'stew', 6), // guests: held at 2
      at('2026-05-05', 'stew', 3), // someone away: 3 at once
      at('2026-05-06', 'stew', 5), // a dish the list was not made for: 5 at once
      at('2026-05-07', 'soup', 2),
    ];
    expect(heldDays(now, made).map((d) => d.portions)).to.deep.equal([2, 3, 5, 2]);
    expect(heldDays([at('2026-05-04', 'soup', 6)], made)[0]!.portions, 'another dish').to.equal(6);
    expect(heldDays([at('2026-05-04', 'stew', 6, { portionsOverride: 6 })], made)[0]!.portions, 'an override').to.equal(6);
    // An override does not open a closed day: it is held like any other rise once the day opens.
    expect(heldDays([at('2026-05-04', 'stew', 6, { portionsOverride: 6, cookedAtHome: false })], made)[0]!.portions).to.equal(2);
  });

  it('wouldAdd is what the week as it is buys beyond the held list, per food and unit, after the pantry', () => {
    const held = deriveList(input([at('2026-05-04', 'stew', 2)], [stew], { pantry: [pantryRow('løk', 2, 'stk')] }));
    const full = deriveList(input([at('2026-05-04', 'stew', 6)], [stew], { pantry: [pantryRow('løk', 2, 'stk')] }));
    // The pantry's two onions cover the held need (1) and part of the full one (3): one more onion, 400 g more mince.
    expect(held.lines.map((l) => l.foodKey)).to.deep.equal(['kjøttdeig']);
    const more = wouldAddOf(full, held);
    expect(more).to.have.deep.members([
      { foodKey: 'løk', displayName: 'Løk', quantity: 1, unit: 'pcs' },
      { foodKey: 'kjøttdeig', displayName: 'Kjøttdeig', quantity: 400, unit: 'g' },
    ]);
    expect(more.map((m) => m.foodKey), 'in list order').to.deep.equal(full.lines.map((l) => l.foodKey));
    expect(wouldAddOf(held, held)).to.deep.equal([]);
  });

  it('reconcile keeps staleSince while there is something to add, sets it when there newly is, clears it when there is none', () => {
    const t0 = new Date('2026-05-04T09:00:00.000Z');
    const t1 = new Date('2026-05-04T10:00:00.000Z');
    const derived = deriveList(input([at('2026-05-04', 'stew', 2)], [stew]));
    const ask = { madeFor: madeForOf([at('2026-05-04', 'stew', 2)]), wouldAdd: [{ foodKey: 'løk', displayName: 'Løk', quantity: 1, unit: 'pcs' }] };
    const base = { id: 'l', householdId: 'h', planId: 'p', version: 1, derivation: null };
    const first = { ...base, ...reconcile(null, derived, () => randomUUID(), t0, false, ask)! };
    expect(first.staleSince).to.deep.equal(t0);
    expect(reconcile(first, derived, () => randomUUID(), t1, false, ask), 'nothing moved').to.equal(null);
    const more = reconcile(first, derived, () => randomUUID(), t1, false, { ...ask, wouldAdd: [{ ...ask.wouldAdd[0]!, quantity: 2 }] })!;
    expect(more.staleSince).to.deep.equal(t0);
    const none = reconcile(first, derived, () => randomUUID(), t1, false, { ...ask, wouldAdd: [] })!;
    expect([none.staleSince, none.wouldAdd]).to.deep.equal([null, []]);
  });
});

describe('shopping list use cases (memory)', () => {
  const person = (): Account => ({
    id: randomUUID(), email: `${randomUUID()}@example.com`, emailConfirmed: true, displayName: 'Kari', language: 'nb', passwordHash: null, securityStamp: randomUUID(),
    createdAt: new Date(0), updatedAt: new Date(0),
  });
  const line = (displayName: string, quantity: number | null, unit: string | null, over: Partial<IngredientInput> = {}): IngredientInput => ({
    displayName, quantity, unit, optional: false, baseRecipeId: null, reference: null, ...over,
  });

  async function week() {
    const { deps, clock } = domain();
    const kari = person();
    await deps.accounts.create({ ...kari });
    const h = await createHousehold(deps, kari, { name: 'Hansen' });
    if (!h.ok) throw new Error('household');
    const hid = h.value.id;
    const r = await createRecipe(deps, kari, hid, { title: 'Taco', servings: 1, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [line('Kjøttdeig', 100, 'g'), line('Lomper', 2, 'stk')] });
    if (!r.ok) throw new Error('recipe');
    const plan = await ensureWeekPlan(deps, kari, hid, '2026-05-04');
    if (!plan.ok) throw new Error('plan');
    await setPlanDay(deps, kari, hid, plan.value.id, '2026-05-05', { recipeId: r.value.id, portions: null, note: null });
    return { deps, clock, kari, hid, planId: plan.value.id, recipeId: r.value.id };
  }

  it('prices a current list again after a food-table sync, and reads nothing more while nothing moves', async () => {
    const w = await week();
    const first = await getShoppingList(w.deps, w.kari, w.hid, w.planId);
    if (!first.ok) throw new Error('list');
    const meat = first.value.list.lines.find((l) => l.displayName === 'Kjøttdeig')!;
    expect(meat.suggestedPriceSource).to.equal('None');
    const stamp = await w.deps.shoppingLists.stamp(w.hid, w.planId);
    expect(stamp?.derivation?.from).to.match(/^\d+\/unsynced$/);
    let read = 0;
    // Deriving reads the inputs; a current list reads only its state.
    const lists = w.deps.shoppingLists;
    const counting = { ...w.deps, shoppingLists: { ...lists, inputs: (...a: Parameters<typeof lists.inputs>) => ((read += 1), lists.inputs(...a)) } };
    await getShoppingList(counting, w.kari, w.hid, w.planId);
    expect(read).to.equal(0);
    await w.deps.foodTable.replaceAll(
      [{ id: 'p1', ean: '7000000000001', name: 'Kjøttdeig 400 g', foodKey: meat.foodKey, foodGroup: 'meat', novaGroup: 1, nutriScore: 'b', prices: [{ chain: 'Kiwi', price: 59.9, unit: 'pk', packageSize: 400 }] }],
      w.clock.now(),
    );
    const priced = await getShoppingList(counting, w.kari, w.hid, w.planId);
    if (!priced.ok) throw new Error('list');
    expect(read).to.be.above(0);
    expect(priced.value.list.lines.find((l) => l.id === meat.id)).to.include({ suggestedPriceSource: 'FoodTable', suggestedPrice: 59.9 });
  });

  it('a failing price provider gives a list without suggestions, reported to the caller', async () => {
    const w = await week();
    const failing = { ...w.deps, prices: { pricesFor: () => Promise.reject(new Error('catalogue down')), revision: async () => 'r' } };
    const res = await generateShoppingList(failing, w.kari, w.hid, w.planId);
    if (!res.ok) throw new Error('list');
    expect((res.value.priceError as Error).message).to.equal('catalogue down');
    expect(res.value.list.lines.map((l) => [l.displayName, l.requiredQuantity, l.suggestedPriceSource])).to.deep.equal([['Kjøttdeig', 100, 'None'], ['Lomper', 2, 'None']]);
  });

  it('stores the list once, bumps the version only on change, and keeps ticks and hand-added lines through generate', async () => {
    const w = await week();
    const a = await getShoppingList(w.deps, w.kari, w.hid, w.planId);
    const b = await getShoppingList(w.deps, w.kari, w.hid, w.planId);
    if (!a.ok || !b.ok) throw new Error('list');
    expect([a.value.list.version, b.value.list.version, b.value.list.id]).to.deep.equal([1, 1, a.value.list.id]);
    const meat = a.value.list.lines[0]!;
    const tick = await updateShoppingItem(w.deps, w.kari, w.hid, meat.id, { status: 'Purchased', purchasedQuantity: 40 });
    expect(tick.ok && tick.value).to.include({ status: 'Buy', purchasedQuantity: 40, tickNotified: true });
    const added = await addShoppingItem(w.deps, w.kari, w.hid, w.planId, { displayName: '3 egg' });
    expect(added.ok && added.value).to.include({ requiredQuantity: 3, unit: 'pcs', isManual: true, addedAfterShopping: true });
    const gen = await generateShoppingList(w.deps, w.kari, w.hid, w.planId);
    if (!gen.ok) throw new Error('list');
    expect(gen.value.list.version).to.equal(4);
    expect(gen.value.list.lines.find((l) => l.id === meat.id)).to.include({ purchasedQuantity: 40 });
    expect(gen.value.list.lines.some((l) => added.ok && l.id === added.value.id)).to.equal(true);
    const other = await updateShoppingItem(w.deps, person(), w.hid, meat.id, { status: 'Purchased' });
    expect(other).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
  });

  it('guests make the list ask, not grow; generate applies what it asks, and a second generate finds nothing more', async () => {
    const w = await week();
    const before = await getShoppingList(w.deps, w.kari, w.hid, w.planId);
    if (!before.ok) throw new Error('list');
    const amounts = (l: ShoppingList) => l.lines.map((x) => [x.displayName, x.requiredQuantity]);
    expect(amounts(before.value.list)).to.deep.equal([['Kjøttdeig', 100], ['Lomper', 2]]);
    const guests = await createEvent(w.deps, w.kari, w.hid, {
      date: '2026-05-05', eventType: 'Guests', servingTime: null, availableCookingMinutes: null, notes: null,
      guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: [] }], memberAttendance: [],
    });
    expect(guests.ok).to.equal(true);
    const asks = await getShoppingList(w.deps, w.kari, w.hid, w.planId);
    if (!asks.ok) throw new Error('list');
    expect(amounts(asks.value.list)).to.deep.equal([['Kjøttdeig', 100], ['Lomper', 2]]);
    expect(asks.value.list.wouldAdd.map((x) => [x.displayName, x.quantity])).to.have.deep.members([['Kjøttdeig', 200], ['Lomper', 4]]);
    expect(asks.value.list.staleSince).to.deep.equal(w.clock.now());
    const applied = await generateShoppingList(w.deps, w.kari, w.hid, w.planId);
    const again = await generateShoppingList(w.deps, w.kari, w.hid, w.planId);
    if (!applied.ok || !again.ok) throw new Error('list');
    for (const l of [applied.value.list, again.value.list]) {
      expect(amounts(l)).to.deep.equal([['Kjøttdeig', 300], ['Lomper', 6]]);
      expect([l.wouldAdd, l.staleSince]).to.deep.equal([[], null]);
    }
  });
});
