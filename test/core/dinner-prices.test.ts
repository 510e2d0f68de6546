import { expect } from 'chai';
import * as v from 'valibot';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { memoryDinnerPriceStore } from '../../adapters/memory/dinner-prices.js';
import { memoryFoodTableStore } from '../../adapters/memory/food-table.js';
import { emptyTables } from '../../adapters/memory/stores.js';
import { DinnerPricesPublic } from '../../adapters/http/routes/dinner-prices.js';
import { drawAndPrice, isoWeekOf, measureDinnerPrices } from '../../core/dinnerprices/measure.js';
import { lineCost, priceBookOf, weekCost } from '../../core/dinnerprices/pricing.js';
import { dinnerPriceFiles, dinnerPricesCsv, dinnerPricesJson, publishDinnerPrices, publishedMonths } from '../../core/dinnerprices/publish.js';
import { drawIndexes, seedOf } from '../../core/dinnerprices/random.js';
import { fnv1a32, mulberry32 } from '../../core/kernel/seeded.js';
import { median, percentile } from '../../core/dinnerprices/statistics.js';
import { portionsOf, type DinnerPriceMeasurement } from '../../core/dinnerprices/types.js';
import type { FoodProduct } from '../../core/food/types.js';
import type { LibraryIngredient, LibraryRecipe, RecipeLibrary } from '../../ports/recipe-library.js';
import { measurement } from '../contracts/dinner-price-store.contract.js';

// A fixed catalogue of six products at two chains, and a fixed library of six recipes (one of them unpriced).
const product = (id: string, foodKey: string, prices: FoodProduct['prices']): FoodProduct => ({ id, ean: null, name: id, foodKey, foodGroup: 'Test', novaGroup: 1, nutriScore: null, prices });
const CATALOGUE: FoodProduct[] = [
  product('spaghetti-500', 'spaghetti', [{ chain: 'Rema 1000', price: 17.5, unit: 'g', packageSize: 500 }, { chain: 'Kiwi', price: 18, unit: 'g', packageSize: 500 }]),
  product('kjottdeig-400', 'kjøttdeig', [{ chain: 'Rema 1000', price: 60, unit: 'g', packageSize: 400 }, { chain: 'Kiwi', price: 56, unit: 'g', packageSize: 400 }]),
  product('tomat-400', 'hakkede-tomat', [{ chain: 'Kiwi', price: 12, unit: 'g', packageSize: 400 }]),
  product('egg-12', 'egg', [{ chain: 'Rema 1000', price: 36, unit: 'stk', packageSize: 12 }]),
  product('melk-1', 'lettmelk', [{ chain: 'Kiwi', price: 20, unit: 'l', packageSize: 1 }]),
  product('potet-los', 'potet', [{ chain: 'Rema 1000', price: 25, unit: 'kg', packageSize: null }]),
];
const ing = (foodKey: string, quantity: number | null, unit: string | null): LibraryIngredient => ({ foodKey, displayName: foodKey, quantity, unit });
const recipe = (id: string, servings: number, ingredients: LibraryIngredient[]): LibraryRecipe => ({ id, title: id, servings, totalMinutes: null, ingredients, licence: 'CC0-1.0', source: 'test', attribution: 'test' });
const LIBRARY: LibraryRecipe[] = [
  recipe('r1-bolognese', 4, [ing('spaghetti', 400, 'g'), ing('kjøttdeig', 400, 'g'), ing('hakkede-tomat', 400, 'g'), ing('salt', null, null)]),
  recipe('r2-omelett', 2, [ing('egg', 6, 'stk'), ing('lettmelk', 1, 'dl')]),
  recipe('r3-potetmos', 4, [ing('potet', 1, 'kg'), ing('lettmelk', 2, 'dl')]),
  recipe('r4-safranris', 4, [ing('safran', 1, 'g')]),
  recipe('r5-pasta', 2, [ing('spaghetti', 250, 'g')]),
  recipe('r6-eggerøre', 1, [ing('egg', 2, null), ing('lettmelk', 0.5, 'dl')]),
];
/** NOK per portion of each recipe at the catalogue's cheapest list prices (worked out by hand); null: unpriced. */
const PER_PORTION: Record<string, number | null> = {
  'r1-bolognese': (400 * 0.035 + 400 * 0.14 + 400 * 0.03) / 4, // 20.50
  'r2-omelett': (6 * 3 + 0.1 * 20) / 2, // 10
  'r3-potetmos': (25 + 0.2 * 20) / 4, // 7.25
  'r4-safranris': null,
  'r5-pasta': (250 * 0.035) / 2, // 4.375
  'r6-eggerøre': 2 * 3 + 0.05 * 20, // 7
};
const book = priceBookOf(CATALOGUE);
const SEED = 20260302;

const fixedLibrary = (recipes: LibraryRecipe[], version = 'test-set-1'): RecipeLibrary => ({ all: async () => structuredClone(recipes), version: async () => version });

describe('Dinner prices: the seeded draw', () => {
  it('uses mulberry32 and FNV-1a exactly (a recorded seed repeats the draw anywhere)', () => {
    const next = mulberry32(42);
    expect([next(), next(), next()]).to.deep.equal([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
    expect(fnv1a32('')).to.equal(0x811c9dc5);
    expect(fnv1a32('a')).to.equal(0xe40c292c);
    expect(seedOf('2026-W10', 'couple')).to.equal(3768710549);
    expect(seedOf('2026-W10', 'single')).to.not.equal(seedOf('2026-W10', 'couple'));
  });

  it('draws the same recipes in the same order from a seed: the first two weeks pinned', () => {
    const d = drawAndPrice({ recipes: LIBRARY, book, portions: 1, seed: SEED });
    expect(d.drawn).to.have.length(1000);
    expect(d.drawn.slice(0, 14)).to.deep.equal([
      'r6-eggerøre', 'r4-safranris', 'r4-safranris', 'r1-bolognese', 'r6-eggerøre', 'r4-safranris', 'r6-eggerøre',
      'r1-bolognese', 'r4-safranris', 'r3-potetmos', 'r1-bolognese', 'r4-safranris', 'r6-eggerøre', 'r1-bolognese',
    ]);
  });

  it('gives the same result for the same seed, twice, over many seeds and household sizes', () => {
    for (let i = 0; i < 40; i++) {
      const seed = fnv1a32(`property-${i}`);
      const portions = 1 + (i % 3);
      const a = drawAndPrice({ recipes: LIBRARY, book, portions, seed });
      const b = drawAndPrice({ recipes: structuredClone(LIBRARY), book: priceBookOf(structuredClone(CATALOGUE)), portions, seed });
      expect(b).to.deep.equal(a);
      expect(drawIndexes(seed, 6, 50)).to.deep.equal(drawIndexes(seed, 6, 50));
      expect(drawIndexes(seed, 6, 50).every((n) => Number.isInteger(n) && n >= 0 && n < 6)).to.equal(true);
    }
    expect(drawIndexes(1, 6, 50)).to.not.deep.equal(drawIndexes(2, 6, 50));
  });
});

describe('Dinner prices: pricing at list prices', () => {
  it('costs a line proportionally at the cheapest price per unit of any chain, converting units', () => {
    // 400 g of mince: Kiwi's 56 per 400 g beats Rema's 60.
    expect(lineCost(book, ing('kjøttdeig', 400, 'g'), 1)).to.deep.equal({ cost: 56, chain: 'Kiwi' });
    // 0.5 kg of spaghetti is 500 g at 17.50 per 500 g (Rema); scaled by the factor.
    expect(lineCost(book, ing('spaghetti', 0.5, 'kg'), 2)).to.deep.equal({ cost: 35, chain: 'Rema 1000' });
    // 2 dl of milk at 20 per litre; "stk" and no unit are pieces: 3 eggs at 36 per 12.
    expect(lineCost(book, ing('lettmelk', 2, 'dl'), 1)).to.deep.equal({ cost: 4, chain: 'Kiwi' });
    expect(lineCost(book, ing('egg', 3, null), 1)).to.deep.equal({ cost: 9, chain: 'Rema 1000' });
    // Loose potatoes: a price per kg without a package size.
    expect(lineCost(book, ing('potet', 600, 'g'), 1)).to.deep.equal({ cost: 15, chain: 'Rema 1000' });
    // Food keys are compared normalized.
    expect(lineCost(book, ing('Kjøttdeig', 400, 'g'), 1)).to.deep.equal({ cost: 56, chain: 'Kiwi' });
  });

  it('leaves unpriced what no offer converts to, and needs no price for "to taste"', () => {
    expect(lineCost(book, ing('safran', 1, 'g'), 1)).to.equal(null);
    expect(lineCost(book, ing('egg', 100, 'g'), 1)).to.equal(null); // pieces to mass needs a piece weight
    expect(lineCost(book, ing('lettmelk', 100, 'g'), 1)).to.equal(null); // volume never converts to mass
    expect(lineCost(book, ing('spaghetti', 1, 'pk'), 1)).to.equal(null); // a package has no size of its own
    expect(lineCost(book, ing('salt', null, null), 1)).to.deep.equal({ cost: 0, chain: null });
    expect(lineCost(book, ing('safran', null, 'g'), 1)).to.deep.equal({ cost: 0, chain: null });
  });

  it('prices a week of dinners for a household, or not at all when one line lacks a price', () => {
    const week = ['r1-bolognese', 'r2-omelett', 'r3-potetmos', 'r5-pasta', 'r6-eggerøre', 'r1-bolognese', 'r2-omelett'].map((id) => LIBRARY.find((r) => r.id === id)!);
    const family = weekCost(book, week, portionsOf('family'));
    expect(Number(family!.cost.toFixed(6))).to.equal(3 * (20.5 + 10 + 7.25 + 4.375 + 7 + 20.5 + 10));
    expect([...family!.chains].sort()).to.deep.equal(['Kiwi', 'Rema 1000']);
    expect(weekCost(book, [...week.slice(0, 6), LIBRARY[3]!], 1)).to.equal(null);
  });

  it('knows three household types: 1, 2 and 3 portions (two adults and two children at half a portion)', () => {
    expect([portionsOf('single'), portionsOf('couple'), portionsOf('family')]).to.deep.equal([1, 2, 3]);
  });
});

describe('Dinner prices: one measurement', () => {
  it('keeps the fully priced weeks among 142 drawn, their median, coverage and chains (pinned on the fixed set)', () => {
    const d = drawAndPrice({ recipes: LIBRARY, book, portions: 2, seed: SEED });
    // Worked out again from the drawn ids and the per-portion costs by hand.
    const weeks = Array.from({ length: 142 }, (_, w) => d.drawn.slice(w * 7, w * 7 + 7));
    const priced = weeks.filter((w) => w.every((id) => PER_PORTION[id] !== null)).map((w) => w.reduce((s, id) => s + PER_PORTION[id]! * 2, 0));
    expect(d.weeksDrawn).to.equal(142);
    expect(d.weeksPriced).to.equal(priced.length);
    expect(d.weekPrices.map((p) => Number(p.toFixed(6)))).to.deep.equal(priced.map((p) => Number(p.toFixed(6))));
    expect(d.medianWeekPrice).to.equal(Math.round(median(priced)! * 100) / 100);
    expect([d.weeksPriced, d.medianWeekPrice, d.coverage, d.chains]).to.deep.equal([25, 138, 25 / 142, 2]);
  });

  it('has full coverage when every recipe is priced, and none when none is', () => {
    const priced = drawAndPrice({ recipes: LIBRARY.filter((r) => r.id !== 'r4-safranris'), book, portions: 2, seed: SEED });
    expect([priced.weeksDrawn, priced.weeksPriced, priced.coverage, priced.medianWeekPrice, priced.chains]).to.deep.equal([142, 142, 1, 132.63, 2]);
    const none = drawAndPrice({ recipes: [LIBRARY[3]!], book, portions: 2, seed: SEED });
    expect([none.weeksDrawn, none.weeksPriced, none.coverage, none.medianWeekPrice, none.chains]).to.deep.equal([142, 0, 0, null, 0]);
  });

  it('finds the ISO week of a day (the year of its Thursday)', () => {
    expect(isoWeekOf('2026-05-04')).to.deep.equal({ week: '2026-W19', weekStart: '2026-05-04' });
    expect(isoWeekOf('2026-05-10')).to.deep.equal({ week: '2026-W19', weekStart: '2026-05-04' });
    expect(isoWeekOf('2026-01-01')).to.deep.equal({ week: '2026-W01', weekStart: '2025-12-29' });
    expect(isoWeekOf('2027-01-01')).to.deep.equal({ week: '2026-W53', weekStart: '2026-12-28' });
    expect(isoWeekOf('2024-12-30')).to.deep.equal({ week: '2025-W01', weekStart: '2024-12-30' });
  });

  it('records one measurement per household type and week with its seed and recipe set; a second run keeps them', async () => {
    const clock = fixedClock(new Date('2026-05-03T22:30:00.000Z')); // Monday 00:30 in Oslo
    const foodTable = memoryFoodTableStore(emptyTables());
    await foodTable.replaceAll(CATALOGUE, new Date('2026-05-03T02:41:00.000Z'));
    const deps = { recipeLibrary: fixedLibrary(LIBRARY), foodTable, dinnerPrices: memoryDinnerPriceStore(), clock };
    expect(await measureDinnerPrices(deps)).to.deep.equal({ week: '2026-W19', measured: ['single', 'couple', 'family'], alreadyMeasured: [], noRecipes: false });
    const couple = await deps.dinnerPrices.measurementOf('couple', '2026-W19');
    const expected = drawAndPrice({ recipes: LIBRARY, book, portions: 2, seed: seedOf('2026-W19', 'couple') });
    expect(couple).to.deep.equal({
      householdType: 'couple',
      week: '2026-W19',
      weekStart: '2026-05-04',
      seed: seedOf('2026-W19', 'couple'),
      recipeSetVersion: 'test-set-1',
      pricesSyncedAt: new Date('2026-05-03T02:41:00.000Z'),
      recipesDrawn: 1000,
      weeksDrawn: 142,
      weeksPriced: expected.weeksPriced,
      medianWeekPrice: expected.medianWeekPrice,
      coverage: expected.coverage,
      chains: 2,
      measuredAt: new Date('2026-05-03T22:30:00.000Z'),
    });
    clock.advance(3 * 86_400_000);
    await foodTable.replaceAll([], new Date('2026-05-06T02:41:00.000Z'));
    expect(await measureDinnerPrices(deps)).to.deep.equal({ week: '2026-W19', measured: [], alreadyMeasured: ['single', 'couple', 'family'], noRecipes: false });
    expect(await deps.dinnerPrices.measurementOf('couple', '2026-W19')).to.deep.equal(couple);
  });

  it('records nothing while the library is empty', async () => {
    const deps = { recipeLibrary: fixedLibrary([]), foodTable: memoryFoodTableStore(emptyTables()), dinnerPrices: memoryDinnerPriceStore(), clock: fixedClock(new Date('2026-05-04T03:00:00.000Z')) };
    expect(await measureDinnerPrices(deps)).to.deep.equal({ week: '2026-W19', measured: [], alreadyMeasured: [], noRecipes: true });
    expect(await deps.dinnerPrices.measurementsBefore('2100-01-01')).to.deep.equal([]);
  });
});

describe('Dinner prices: statistics and the monthly publication', () => {
  it('takes percentiles by linear interpolation between closest ranks', () => {
    expect([percentile([500, 100, 300, 200, 400], 0.1), median([500, 100, 300, 200, 400]), percentile([100, 200, 300, 400, 500], 0.9)]).to.deep.equal([140, 300, 460]);
    expect([percentile([410, 420, 440, 480], 0.1), median([410, 420, 440, 480]), percentile([410, 420, 440, 480], 0.9)].map((n) => Number(n!.toFixed(9)))).to.deep.equal([413, 430, 468]);
    expect([percentile([7], 0.1), median([7]), percentile([], 0.5)]).to.deep.equal([7, 7, null]);
  });

  const week = (householdType: DinnerPriceMeasurement['householdType'], weekStart: string, medianWeekPrice: number | null, weeksPriced: number, chains = 3, recipeSetVersion = 'set-a') =>
    measurement({ householdType, week: isoWeekOf(weekStart).week, weekStart, medianWeekPrice, weeksPriced, coverage: weeksPriced / 142, chains, recipeSetVersion });
  const MEASUREMENTS = [
    // March 2026: five weeks start in it (the one of Monday 30 March counts for March).
    week('couple', '2026-03-02', 410, 130),
    week('couple', '2026-03-09', 480, 120),
    week('couple', '2026-03-16', 440, 142, 2),
    week('couple', '2026-03-23', 420, 100),
    week('couple', '2026-03-30', 455, 140, 3, 'set-b'),
    week('family', '2026-03-02', null, 0, 0),
    week('family', '2026-03-09', 900, 71),
    // April has not ended on 2026-04-15: left out.
    week('single', '2026-04-06', 200, 142),
    week('couple', '2026-04-06', 400, 142),
  ];

  it('publishes each household type of each ended month: median, p10, p90, per portion, coverage, chains, weeks', () => {
    expect(publishedMonths(MEASUREMENTS, '2026-04')).to.deep.equal([
      // Medians 410 420 440 455 480: p10 = 410 + 0.4·10, p90 = 455 + 0.6·25; 440 ÷ (7 × 2); 632 of 710 weeks priced.
      { month: '2026-03', householdType: 'couple', medianWeekPrice: 440, p10WeekPrice: 414, p90WeekPrice: 470, pricePerPortion: 31.43, coverage: 0.89, chains: 3, weeksMeasured: 5, recipeSetVersion: 'set-b' },
      // One week without any fully priced week: counted in coverage (71 of 284), not in the figures.
      { month: '2026-03', householdType: 'family', medianWeekPrice: 900, p10WeekPrice: 900, p90WeekPrice: 900, pricePerPortion: 42.86, coverage: 0.25, chains: 3, weeksMeasured: 1, recipeSetVersion: 'set-a' },
    ]);
    expect(publishedMonths(MEASUREMENTS, '2026-03')).to.deep.equal([]);
    expect(publishedMonths(MEASUREMENTS, '2026-05').map((r) => `${r.month} ${r.householdType}`)).to.deep.equal(['2026-03 couple', '2026-03 family', '2026-04 single', '2026-04 couple']);
  });

  it('writes the JSON document and the CSV file (RFC 4180) from the same rows', () => {
    const rows = publishedMonths(MEASUREMENTS, '2026-04').map((r, i) => (i === 1 ? { ...r, recipeSetVersion: 'set "c", 2' } : r));
    const json = JSON.parse(dinnerPricesJson(rows, new Date('2026-04-01T04:00:00.000Z'))) as Record<string, unknown>;
    expect(json).to.deep.equal({
      generatedAt: '2026-04-01T04:00:00.000Z',
      currency: 'NOK',
      recipeSetVersion: 'set "c", 2',
      months: [
        { month: '2026-03', householdType: 'couple', medianWeekPrice: 440, p10WeekPrice: 414, p90WeekPrice: 470, pricePerPortion: 31.43, coverage: 0.89, chains: 3, weeksMeasured: 5 },
        { month: '2026-03', householdType: 'family', medianWeekPrice: 900, p10WeekPrice: 900, p90WeekPrice: 900, pricePerPortion: 42.86, coverage: 0.25, chains: 3, weeksMeasured: 1 },
      ],
    });
    expect(() => v.parse(DinnerPricesPublic, json)).to.not.throw();
    expect(dinnerPricesCsv(rows)).to.equal(
      'month,householdType,medianWeekPrice,p10WeekPrice,p90WeekPrice,pricePerPortion,coverage,chains,source,recipeSetVersion\r\n' +
        '2026-03,couple,440.00,414.00,470.00,31.43,0.89,3,food table chain list prices,set-b\r\n' +
        '2026-03,family,900.00,900.00,900.00,42.86,0.25,3,food table chain list prices,"set ""c"", 2"\r\n',
    );
    expect(JSON.parse(dinnerPricesJson([], null))).to.deep.equal({ generatedAt: null, currency: 'NOK', recipeSetVersion: null, months: [] });
  });

  it('stores the files when a month has ended, and rewrites them only when their figures change', async () => {
    const clock = fixedClock(new Date('2026-03-31T21:30:00.000Z')); // 23:30 on 31 March in Oslo
    const deps = { dinnerPrices: memoryDinnerPriceStore(), clock };
    const empty = await dinnerPriceFiles(deps);
    expect([empty.generatedAt, JSON.parse(empty.json).months, empty.csv.split('\r\n').length]).to.deep.equal([null, [], 2]);
    for (const m of MEASUREMENTS) await deps.dinnerPrices.recordMeasurement(m);
    expect(await publishDinnerPrices(deps)).to.deep.equal({ changed: true, months: 0 });
    const before = await deps.dinnerPrices.publication();
    expect(JSON.parse(before!.json).months).to.deep.equal([]);

    clock.set(new Date('2026-03-31T22:00:00.000Z')); // midnight in Oslo: March has ended
    expect(await publishDinnerPrices(deps)).to.deep.equal({ changed: true, months: 2 });
    const published = (await dinnerPriceFiles(deps)) as { generatedAt: Date; json: string; csv: string };
    expect(published.generatedAt).to.deep.equal(new Date('2026-03-31T22:00:00.000Z'));
    expect(published.json).to.equal(dinnerPricesJson(publishedMonths(MEASUREMENTS, '2026-04'), published.generatedAt));
    expect(published.csv).to.equal(dinnerPricesCsv(publishedMonths(MEASUREMENTS, '2026-04')));

    clock.advance(86_400_000);
    await deps.dinnerPrices.recordMeasurement(week('family', '2026-04-13', 950, 142));
    expect(await publishDinnerPrices(deps)).to.deep.equal({ changed: false, months: 2 });
    expect(await deps.dinnerPrices.publication()).to.deep.equal(published);
  });
});
