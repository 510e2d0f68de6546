import { expect } from 'chai';
import type { Account } from '../../core/accounts/types.js';
import { addObservation } from '../../core/pantry/observations.js';
import { containsTokens, suggestMerges } from '../../core/pantry/merge-suggestions.js';
import {
  listMergeSuggestions,
  listPantryMergeRejections,
  listPantryMerges,
  mergePantryKeys,
  rejectPantryMerge,
  removePantryMergeRejection,
  splitPantryMerge,
} from '../../core/pantry/merges.js';
import { gramsPerUnit, listUnitWeights, removeUnitWeight, setUnitWeight } from '../../core/pantry/unit-weights.js';
import type { PantryRow } from '../../core/pantry/types.js';
import { oneBought } from '../support/pantry.js';
import { account, domain, error, ownersHousehold, value } from './support.js';

type Deps = ReturnType<typeof domain>['deps'];

async function setup() {
  const { deps, clock } = domain();
  const { owner, h, join: joining } = await ownersHousehold(deps, 'Europe/Oslo');
  const householdId = h.id;
  const join = async (name: string, role: 'Adult' | 'Junior') => (await joining(name, role)).account;
  const buy = async (displayName: string) => value(await addObservation(deps, owner, householdId, { foodKey: null, ...oneBought(displayName), bestBefore: null })).item;
  const stranger = await account(deps, 'stranger');
  return { deps, clock, owner, householdId, join, buy, stranger };
}

const row = (foodKey: string): PantryRow => ({
  foodKey,
  displayName: foodKey,
  estimatedQuantity: 1,
  unit: 'stk',
  confidence: 1,
  storageLocation: 'Pantry',
  usePriority: 'Normal',
  lastEvidenceAt: new Date('2026-05-01T00:00:00.000Z'),
  aisle: 'Other',
  asksForDate: false,
  lastEvidenceKind: 'Purchased',
  group: 'LikelyAvailable',
  bestBefore: null,
});

describe('pantry merge suggestions (MergeSuggestions)', () => {
  it('finds a general key among the words of a specific one: whole words, or word endings of three or more letters', () => {
    expect(containsTokens('hakkede-tomat', 'tomat')).to.equal(true);
    expect(containsTokens('cherrytomat', 'tomat')).to.equal(true);
    expect(containsTokens('basmatiris', 'ris')).to.equal(true);
    expect(containsTokens('rod-lok', 'lok')).to.equal(true);
    expect(containsTokens('tomatsaus', 'tomat')).to.equal(false);
    expect(containsTokens('ris', 'is')).to.equal(false);
    expect(containsTokens('tomat', 'tomat')).to.equal(false);
    expect(containsTokens('tomat', 'hakkede-tomat')).to.equal(false);
    // In order: "melk-sjokolade" is not "sjokolade-melk".
    expect(containsTokens('melk-sjokolade', 'sjokolade-melk')).to.equal(false);
    expect(containsTokens('lett-sjokolade-melk', 'sjokolade-melk')).to.equal(true);
  });

  it('answers at most three pairs, ordered by to key then from key, the specific row as from', () => {
    const rows = ['tomat', 'hakkede-tomat', 'cherrytomat', 'ris', 'basmatiris', 'agurk', 'tomatsaus'].map(row);
    const pairs = suggestMerges(rows, [], []).map((s) => [s.from.foodKey, s.to.foodKey, s.signal]);
    expect(pairs).to.deep.equal([
      ['basmatiris', 'ris', 'ContainedTokens'],
      ['cherrytomat', 'tomat', 'ContainedTokens'],
      ['hakkede-tomat', 'tomat', 'ContainedTokens'],
    ]);
  });

  it('leaves out pairs rejected (either order) or merged', () => {
    const rows = ['tomat', 'hakkede-tomat', 'cherrytomat', 'ris', 'basmatiris'].map(row);
    const pairs = suggestMerges(rows, [{ keyA: 'basmatiris', keyB: 'ris' }], [{ fromKey: 'tomat', toKey: 'cherrytomat' }]).map((s) => s.from.foodKey);
    expect(pairs).to.deep.equal(['hakkede-tomat']);
  });

  it('reads the rows of the pantry as they are now, for any member, and 404s a non-member', async () => {
    const { deps, householdId, buy, join, stranger } = await setup();
    await buy('Tomater');
    await buy('Hakkede tomater');
    await buy('Agurk');
    const junior = await join('junior', 'Junior');
    const got = value(await listMergeSuggestions(deps, junior, householdId));
    expect(got.map((s) => [s.from.foodKey, s.from.displayName, s.to.foodKey])).to.deep.equal([['hakkede-tomat', 'Hakkede tomater', 'tomat']]);
    expect(error(await listMergeSuggestions(deps, stranger, householdId))).to.equal('household-not-found');
  });
});

describe('pantry merges (Merge)', () => {
  it('merges normalized keys and answers the surviving row holding both foods', async () => {
    const { deps, owner, householdId, buy } = await setup();
    await buy('Cherrytomater');
    await buy('Tomat');
    const got = value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'Cherrytomater', toKey: 'tomater' }));
    expect(got.fromKey).to.equal('cherrytomat');
    expect(got.toKey).to.equal('tomat');
    expect(got.item.foodKey).to.equal('tomat');
    expect(got.item.estimatedQuantity).to.equal(2);
    const page = value(await listPantryMerges(deps, owner, householdId, { cursor: null, limit: 50 }));
    expect(page.items.map((m) => [m.fromKey, m.fromDisplayName, m.toKey, m.toDisplayName])).to.deep.equal([['cherrytomat', 'Cherrytomater', 'tomat', 'Tomat']]);
    expect(page.total).to.equal(1);
    expect(value(await listMergeSuggestions(deps, owner, householdId))).to.deep.equal([]);
  });

  it('gives the same answer for the same pair twice without writing again', async () => {
    const { deps, clock, owner, householdId, buy } = await setup();
    await buy('Cherrytomater');
    await buy('Tomat');
    const first = value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'cherrytomat', toKey: 'tomat' }));
    const before = value(await listPantryMerges(deps, owner, householdId, { cursor: null, limit: 50 }));
    clock.set(new Date('2026-05-05T09:00:00.000Z'));
    const second = value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'cherrytomat', toKey: 'tomat' }));
    // The row has decayed a day meanwhile; the merge is the same.
    expect([second.fromKey, second.toKey, second.item.foodKey, second.item.estimatedQuantity]).to.deep.equal([first.fromKey, first.toKey, 'tomat', 2]);
    expect(value(await listPantryMerges(deps, owner, householdId, { cursor: null, limit: 50 }))).to.deep.equal(before);
  });

  it('refuses the same food (400) and a merge back the other way (409)', async () => {
    const { deps, owner, householdId, buy } = await setup();
    await buy('Cherrytomater');
    await buy('Tomat');
    expect(error(await mergePantryKeys(deps, owner, householdId, { fromKey: 'Tomater', toKey: 'tomat' }))).to.equal('same-food');
    expect(error(await mergePantryKeys(deps, owner, householdId, { fromKey: '!!', toKey: 'tomat' }))).to.equal('food-key-empty');
    value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'cherrytomat', toKey: 'tomat' }));
    expect(error(await mergePantryKeys(deps, owner, householdId, { fromKey: 'tomat', toKey: 'cherrytomat' }))).to.equal('mutual-merge');
  });

  it('resolves chains: A→B then B→C points A at C; A→B with B→C standing is stored as A→C', async () => {
    const { deps, owner, householdId, buy } = await setup();
    for (const name of ['a', 'b', 'c', 'd']) await buy(`food ${name}`);
    value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'food a', toKey: 'food b' }));
    value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'food b', toKey: 'food c' }));
    const got = value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'food d', toKey: 'food b' }));
    expect([got.toKey, got.item.foodKey, got.item.estimatedQuantity]).to.deep.equal(['food-c', 'food-c', 4]);
    const merges = value(await listPantryMerges(deps, owner, householdId, { cursor: null, limit: 50 })).items;
    expect(merges.map((m) => `${m.fromKey}→${m.toKey}`).sort()).to.deep.equal(['food-a→food-c', 'food-b→food-c', 'food-d→food-c']);
    // c→a would point c at a row that folds into c.
    expect(error(await mergePantryKeys(deps, owner, householdId, { fromKey: 'food c', toKey: 'food a' }))).to.equal('mutual-merge');
  });

  it('merges into a key without observations (the row moves under it), but not when neither key has a row', async () => {
    const { deps, owner, householdId, buy } = await setup();
    await buy('Cherrytomater');
    const got = value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'cherrytomat', toKey: 'Tomater' }));
    expect([got.item.foodKey, got.item.estimatedQuantity]).to.deep.equal(['tomat', 1]);
    const merges = value(await listPantryMerges(deps, owner, householdId, { cursor: null, limit: 50 })).items;
    expect(merges[0]!.toDisplayName).to.equal('Tomater');
    expect(error(await mergePantryKeys(deps, owner, householdId, { fromKey: 'agurk', toKey: 'slangeagurk' }))).to.equal('pantry-food-not-found');
  });

  it('overrides an earlier different-foods answer, and a split remembers the pair as different', async () => {
    const { deps, clock, owner, householdId, buy } = await setup();
    await buy('Hakkede tomater');
    await buy('Tomat');
    value(await rejectPantryMerge(deps, owner, householdId, { keyA: 'tomat', keyB: 'hakkede tomater' }));
    expect(value(await listMergeSuggestions(deps, owner, householdId))).to.deep.equal([]);
    value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'hakkede tomater', toKey: 'tomat' }));
    expect(value(await listPantryMergeRejections(deps, owner, householdId, { cursor: null, limit: 50 })).total).to.equal(0);
    clock.set(new Date('2026-05-06T12:00:00.000Z'));
    value(await splitPantryMerge(deps, owner, householdId, 'Hakkede tomater'));
    expect(error(await splitPantryMerge(deps, owner, householdId, 'hakkede-tomat'))).to.equal('merge-not-found');
    const rejections = value(await listPantryMergeRejections(deps, owner, householdId, { cursor: null, limit: 50 })).items;
    expect(rejections.map((r) => [r.keyA, r.keyADisplayName, r.keyB, r.keyBDisplayName, r.decidedAt.toISOString()])).to.deep.equal([
      ['hakkede-tomat', 'Hakkede tomater', 'tomat', 'Tomat', '2026-05-06T12:00:00.000Z'],
    ]);
    expect(value(await listMergeSuggestions(deps, owner, householdId))).to.deep.equal([]);
    value(await removePantryMergeRejection(deps, owner, householdId, { keyA: 'tomat', keyB: 'hakkede-tomat' }));
    expect(error(await removePantryMergeRejection(deps, owner, householdId, { keyA: 'tomat', keyB: 'hakkede-tomat' }))).to.equal('merge-rejection-not-found');
    expect(value(await listMergeSuggestions(deps, owner, householdId))).to.have.length(1);
  });

  it('keeps writes to adults: a Junior reads but gets adults-only on every write', async () => {
    const { deps, owner, householdId, buy, join } = await setup();
    await buy('Cherrytomater');
    await buy('Tomat');
    const junior = await join('junior', 'Junior');
    expect(error(await mergePantryKeys(deps, junior, householdId, { fromKey: 'cherrytomat', toKey: 'tomat' }))).to.equal('adults-only');
    expect(error(await rejectPantryMerge(deps, junior, householdId, { keyA: 'cherrytomat', keyB: 'tomat' }))).to.equal('adults-only');
    expect(error(await splitPantryMerge(deps, junior, householdId, 'cherrytomat'))).to.equal('adults-only');
    expect(error(await removePantryMergeRejection(deps, junior, householdId, { keyA: 'a', keyB: 'b' }))).to.equal('adults-only');
    expect(error(await setUnitWeight(deps, junior, householdId, { foodKey: 'tomat', unit: 'stk', grams: 90 }))).to.equal('adults-only');
    expect(error(await removeUnitWeight(deps, junior, householdId, { foodKey: 'tomat', unit: 'stk' }))).to.equal('adults-only');
    const adult = await join('adult', 'Adult');
    value(await mergePantryKeys(deps, adult, householdId, { fromKey: 'cherrytomat', toKey: 'tomat' }));
    expect(value(await listPantryMerges(deps, junior, householdId, { cursor: null, limit: 50 })).total).to.equal(1);
  });

  it('refuses a cursor of another list or household', async () => {
    const { deps, owner, householdId, buy } = await setup();
    for (const name of ['a', 'b', 'c']) await buy(`food ${name}`);
    value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'food a', toKey: 'food c' }));
    value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'food b', toKey: 'food c' }));
    const first = value(await listPantryMerges(deps, owner, householdId, { cursor: null, limit: 1 }));
    expect(first.nextCursor).to.be.a('string');
    const second = value(await listPantryMerges(deps, owner, householdId, { cursor: first.nextCursor, limit: 1 }));
    expect([...first.items, ...second.items].map((m) => m.fromKey)).to.deep.equal(['food-a', 'food-b']);
    expect(second.nextCursor).to.equal(null);
    expect(error(await listPantryMergeRejections(deps, owner, householdId, { cursor: first.nextCursor, limit: 1 }))).to.equal('page-cursor-invalid');
  });
});

describe('unit weights (UnitWeight)', () => {
  it('puts one weight per food and unit, normalized, named after the pantry row', async () => {
    const { deps, owner, householdId, buy, join } = await setup();
    await buy('Løk');
    const first = value(await setUnitWeight(deps, owner, householdId, { foodKey: 'Løker', unit: ' Stk ', grams: 100 }));
    expect([first.foodKey, first.unit, first.displayName, first.grams]).to.deep.equal(['løk', 'stk', 'Løk', 100]);
    value(await setUnitWeight(deps, owner, householdId, { foodKey: 'løk', unit: 'stk', grams: 110 }));
    value(await setUnitWeight(deps, owner, householdId, { foodKey: 'Gulrøtter', unit: 'stk', grams: 60 }));
    const junior = await join('junior', 'Junior');
    const all = value(await listUnitWeights(deps, junior, householdId, null));
    expect(all.map((w) => [w.foodKey, w.unit, w.displayName, w.grams])).to.deep.equal([
      ['gulrot', 'stk', 'Gulrøtter', 60],
      ['løk', 'stk', 'Løk', 110],
    ]);
    expect(value(await listUnitWeights(deps, junior, householdId, 'Løker')).map((w) => w.foodKey)).to.deep.equal(['løk']);
  });

  it('refuses grams out of (0, 10000] and blank units', async () => {
    const { deps, owner, householdId } = await setup();
    for (const grams of [0, -1, 10000.5, Number.NaN]) {
      expect(error(await setUnitWeight(deps, owner, householdId, { foodKey: 'løk', unit: 'stk', grams }))).to.equal('unit-weight-out-of-bounds');
    }
    expect(error(await setUnitWeight(deps, owner, householdId, { foodKey: 'løk', unit: '  ', grams: 1 }))).to.equal('unit-empty');
    expect(value(await setUnitWeight(deps, owner, householdId, { foodKey: 'løk', unit: 'sekk', grams: 10000 })).grams).to.equal(10000);
  });

  it('converts through gramsPerUnit: own weight, else the surviving food of a merge, else null; removed means null', async () => {
    const { deps, owner, householdId, buy } = await setup();
    await buy('Cherrytomater');
    await buy('Tomat');
    value(await setUnitWeight(deps, owner, householdId, { foodKey: 'tomat', unit: 'stk', grams: 90 }));
    expect(await gramsPerUnit(deps, householdId, 'Tomater', 'STK')).to.equal(90);
    expect(await gramsPerUnit(deps, householdId, 'cherrytomat', 'stk')).to.equal(null);
    value(await mergePantryKeys(deps, owner, householdId, { fromKey: 'cherrytomat', toKey: 'tomat' }));
    expect(await gramsPerUnit(deps, householdId, 'cherrytomat', 'stk')).to.equal(90);
    value(await setUnitWeight(deps, owner, householdId, { foodKey: 'cherrytomat', unit: 'stk', grams: 15 }));
    expect(await gramsPerUnit(deps, householdId, 'cherrytomat', 'stk')).to.equal(15);
    value(await removeUnitWeight(deps, owner, householdId, { foodKey: 'tomat', unit: 'stk' }));
    expect(error(await removeUnitWeight(deps, owner, householdId, { foodKey: 'tomat', unit: 'stk' }))).to.equal('unit-weight-not-found');
    expect(await gramsPerUnit(deps, householdId, 'tomat', 'stk')).to.equal(null);
    expect(await gramsPerUnit(deps, householdId, 'tomat', 'dl')).to.equal(null);
  });
});
