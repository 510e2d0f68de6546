import { expect } from 'chai';
import { embeddedFoodSource } from '../../adapters/foodtable/embedded-source.js';
import type { Account } from '../../core/accounts/types.js';
import { ean13CheckDigit, isValidEan13 } from '../../core/food/ean.js';
import { addReceipt, listReceipts, matchLines, purchaseClassification, type ReceiptLineInput } from '../../core/food/receipts.js';
import { syncFoodTable, syncFoodTableIfEmpty } from '../../core/food/sync.js';
import type { FoodProduct } from '../../core/food/types.js';
import { createHousehold } from '../../core/households/households.js';
import { normalizeFoodKey } from '../../core/kernel/food-key.js';
import { generateCatalogue } from '../../scripts/generate-food-catalogue.js';
import { product } from '../contracts/food-table-store.contract.js';
import { account, domain, error, value } from './support.js';

type Deps = ReturnType<typeof domain>['deps'];

const milk = product('milk', { ean: '7010000000019', name: 'Tine Lettmelk 1 l', foodKey: 'lettmelk', novaGroup: 1, nutriScore: 'b' });
const milkQ = product('milk-q', { ean: '7010000000026', name: 'Q Lettmelk 1 l', foodKey: 'lettmelk', novaGroup: 1 });
const cola = product('cola', { ean: '7010000000033', name: 'Coca-Cola 1,5 l', foodKey: 'brus', novaGroup: 4, nutriScore: 'e' });
const chips = product('chips', { ean: '7010000000040', name: 'Kims Potetgull 250 g', foodKey: 'potetgull', novaGroup: 4, nutriScore: null });
const cheese = product('cheese', { ean: '7010000000057', name: 'Norvegia 500 g', foodKey: 'norvegia', novaGroup: 3, nutriScore: 'd' });
const line = (productName: string, over: Partial<ReceiptLineInput> = {}): ReceiptLineInput => ({ productName, ean: null, quantity: 1, unitPrice: 10, totalPrice: null, ...over });

async function setup(products: FoodProduct[] = [milk, milkQ, cola, chips, cheese]) {
  const { deps, clock } = domain();
  await deps.foodTable.replaceAll(products, clock.now());
  const owner = await account(deps, 'owner');
  const householdId = value(await createHousehold(deps, owner, { name: 'Hansen', timeZoneId: 'Europe/Oslo' })).id;
  return { deps, clock, owner, householdId };
}

describe('Food table: the sample catalogue and the sync', () => {
  it('computes EAN-13 check digits (GS1)', () => {
    expect(ean13CheckDigit('700000000000')).to.equal(3);
    expect(isValidEan13('4006381333931')).to.equal(true);
    expect(isValidEan13('4006381333932')).to.equal(false);
    expect(isValidEan13('400638133393')).to.equal(false);
  });

  it('ships a catalogue of at least 200 products with valid Norwegian EANs, NOVA 1..4 and three chains', async () => {
    const products = await embeddedFoodSource().load();
    expect(products.length).to.be.at.least(200);
    const eans = products.flatMap((p) => (p.ean === null ? [] : [p.ean]));
    expect(eans.length).to.be.at.least(200);
    expect(eans.filter((e) => !isValidEan13(e) || !e.startsWith('70'))).to.deep.equal([]);
    expect(new Set(eans).size).to.equal(eans.length);
    expect(new Set(products.map((p) => p.id)).size).to.equal(products.length);
    expect(products.filter((p) => ![1, 2, 3, 4].includes(p.novaGroup))).to.deep.equal([]);
    expect(products.filter((p) => p.nutriScore !== null && !'abcde'.includes(p.nutriScore))).to.deep.equal([]);
    expect(products.filter((p) => p.foodKey !== normalizeFoodKey(p.foodKey) || p.foodKey === '')).to.deep.equal([]);
    expect(products.filter((p) => p.prices.map((c) => c.chain).join() !== 'Rema 1000,Kiwi,Coop Extra' || p.prices.some((c) => !(c.price > 0)))).to.deep.equal([]);
  });

  it('is what the generator script makes (the committed JSON is not edited by hand)', async () => {
    expect(await embeddedFoodSource().load()).to.deep.equal(generateCatalogue());
  });

  it('syncs the source into an empty table once, and a later sync replaces it', async () => {
    const { deps, clock } = domain();
    expect(await syncFoodTableIfEmpty(deps)).to.equal(true);
    const count = await deps.foodTable.count();
    expect(count).to.equal((await embeddedFoodSource().load()).length);
    expect(await deps.foodTable.lastSyncedAt()).to.deep.equal(clock.now());
    expect(await syncFoodTableIfEmpty(deps)).to.equal(false);

    clock.advance(86_400_000);
    const source = { load: async () => [milk, cola] };
    expect(await syncFoodTable({ ...deps, foodSource: source })).to.deep.equal({ products: 2, upserted: 2, removed: count });
    expect((await deps.foodTable.byIds(['milk', 'cola'])).map((p) => p.id)).to.deep.equal(['cola', 'milk']);
    expect(await deps.foodTable.lastSyncedAt()).to.deep.equal(clock.now());
  });

  it('keeps the table when the source answers nothing', async () => {
    const { deps } = await setup();
    let thrown: unknown = null;
    await syncFoodTable({ ...deps, foodSource: { load: async () => [] } }).catch((err: unknown) => (thrown = err));
    expect(thrown).to.be.instanceOf(Error);
    expect(await deps.foodTable.count()).to.equal(5);
  });
});

describe('Food table: the price provider', () => {
  const a = product('a', { foodKey: 'lettmelk', name: 'A', prices: [{ chain: 'Rema 1000', price: 21.9, unit: 'l', packageSize: 1 }, { chain: 'Kiwi', price: 20.5, unit: 'l', packageSize: 1 }] });
  const b = product('b', { foodKey: 'lettmelk', name: 'B', prices: [{ chain: 'Rema 1000', price: 19.9, unit: 'l', packageSize: 1 }, { chain: 'Coop Extra', price: 18.0, unit: 'l', packageSize: 1.75 }] });
  const c = product('c', { foodKey: 'brus', name: 'C', prices: [{ chain: 'Coop Extra', price: 29.9, unit: 'l', packageSize: 1.5 }] });

  it('takes the cheapest price at the household chains, matching chain names without case', async () => {
    const { deps } = await setup([a, b, c]);
    const prices = await deps.prices.pricesFor(['lettmelk'], ['rema 1000', 'KIWI']);
    expect([...prices.values()]).to.deep.equal([
      { foodKey: 'lettmelk', price: 19.9, unit: 'l', packageSize: 1, chain: 'Rema 1000', productName: 'B', isAggregate: false, source: 'food-table' },
    ]);
  });

  it('falls back to the cheapest at any chain, marked aggregate; unknown foods are left out', async () => {
    const { deps } = await setup([a, b, c]);
    const prices = await deps.prices.pricesFor(['lettmelk', 'brus', 'unknown-food'], ['Kiwi']);
    expect([...prices.keys()].sort()).to.deep.equal(['brus', 'lettmelk']);
    expect(prices.get('lettmelk')).to.include({ price: 20.5, chain: 'Kiwi', isAggregate: false });
    expect(prices.get('brus')).to.include({ price: 29.9, chain: 'Coop Extra', isAggregate: true });
    const none = await deps.prices.pricesFor(['lettmelk'], []);
    expect(none.get('lettmelk')).to.include({ price: 18.0, chain: 'Coop Extra', packageSize: 1.75, isAggregate: true });
    expect((await deps.prices.pricesFor([], ['Kiwi'])).size).to.equal(0);
  });

  it('breaks a price tie by chain name, then product id', async () => {
    const x = product('x', { foodKey: 'egg', prices: [{ chain: 'Rema 1000', price: 40, unit: 'stk', packageSize: 12 }] });
    const y = product('y', { foodKey: 'egg', prices: [{ chain: 'Kiwi', price: 40, unit: 'stk', packageSize: 12 }] });
    const { deps } = await setup([y, x]);
    expect((await deps.prices.pricesFor(['egg'], [])).get('egg')).to.include({ chain: 'Kiwi', productName: y.name });
  });
});

describe('Food table: receipts and matching', () => {
  it('matches by EAN first, else by normalized product name, else by food key, else not at all', async () => {
    const { deps } = await setup();
    const matched = await matchLines(deps, [
      line('Something else entirely', { ean: cola.ean }),
      line('TINE lettmelk, 1 L'),
      line('Lettmelk'),
      line('Pant', { ean: '7000000000000' }),
      line('!!!'),
    ]);
    // "Lettmelk" is the food key of two products: the lowest id answers.
    expect(matched.map((p) => p?.id ?? null)).to.deep.equal(['cola', 'milk', 'milk', null, null]);
  });

  it('records a receipt with the product of each line and pages the household receipts', async () => {
    const { deps, owner, householdId } = await setup();
    const created = value(
      await addReceipt(deps, owner, householdId, { purchasedAt: new Date('2026-05-03T12:00:00.000Z'), chain: 'Kiwi', lines: [line('Norvegia 500 g'), line('Pant')] }),
    );
    expect(created).to.deep.include({ linesTotal: 2, linesRecognised: 1 });
    const lines = await deps.receipts.linesSince(householdId, new Date('2026-01-01T00:00:00.000Z'));
    expect(lines.map((l) => l.productId)).to.deep.equal(['cheese', null]);
    for (const day of ['2026-05-01', '2026-05-02']) {
      value(await addReceipt(deps, owner, householdId, { purchasedAt: new Date(`${day}T12:00:00.000Z`), chain: 'Rema 1000', lines: [line('Brus')] }));
    }
    const first = value(await listReceipts(deps, owner, householdId, { cursor: null, limit: 2 }));
    expect(first.items.map((r) => r.purchasedAt.toISOString().slice(0, 10))).to.deep.equal(['2026-05-03', '2026-05-02']);
    expect(first.total).to.equal(3);
    const second = value(await listReceipts(deps, owner, householdId, { cursor: first.nextCursor, limit: 2 }));
    expect(second.items.map((r) => r.purchasedAt.toISOString().slice(0, 10))).to.deep.equal(['2026-05-01']);
    expect(second.nextCursor).to.equal(null);
    expect(error(await listReceipts(deps, owner, householdId, { cursor: 'forged', limit: 2 }))).to.equal('page-cursor-invalid');
  });

  it('answers household-not-found to a stranger', async () => {
    const { deps, householdId } = await setup();
    const stranger = await account(deps, 'stranger');
    expect(error(await addReceipt(deps, stranger, householdId, { purchasedAt: new Date(), chain: 'Kiwi', lines: [line('Brus')] }))).to.equal('household-not-found');
    expect(error(await listReceipts(deps, stranger, householdId, { cursor: null, limit: 10 }))).to.equal('household-not-found');
    expect(error(await purchaseClassification(deps, stranger, householdId, 30))).to.equal('household-not-found');
  });
});

describe('Food table: purchase classification', () => {
  it('counts distinct priced lines per NOVA group within the window, shares of recognised lines', async () => {
    const { deps, clock, owner, householdId } = await setup();
    const add = (daysAgo: number, lines: ReceiptLineInput[]) =>
      addReceipt(deps, owner, householdId, { purchasedAt: new Date(clock.now().getTime() - daysAgo * 86_400_000), chain: 'Kiwi', lines });
    value(
      await add(1, [
        line('Coca-Cola 1,5 l', { ean: cola.ean }),
        line('Cola', { ean: cola.ean, unitPrice: null, totalPrice: 29.9 }), // the same product again: one line
        line('Kims Potetgull 250 g'),
        line('Norvegia 500 g'),
        line('Tine Lettmelk 1 l'),
        line('Ukjent vare'),
        line('UKJENT VARE'), // the same name normalized: one line
        line('Pant', { unitPrice: null, totalPrice: null }), // unpriced: not counted
      ]),
    );
    value(await add(40, [line('Gammel vare'), line('Q Lettmelk 1 l')])); // outside 30 days
    const c = value(await purchaseClassification(deps, owner, householdId, 30));
    expect(c).to.deep.equal({
      days: 30,
      linesTotal: 5,
      linesRecognised: 4,
      heavilyProcessed: 2,
      processed: 1,
      lightlyProcessed: 1,
      processingUnknown: 1,
      examples: [
        { productName: 'Coca-Cola 1,5 l', novaGroup: 4, nutriScore: 'e' },
        { productName: 'Kims Potetgull 250 g', novaGroup: 4, nutriScore: null },
      ],
    });
    const wide = value(await purchaseClassification(deps, owner, householdId, 60));
    expect([wide.linesTotal, wide.linesRecognised, wide.lightlyProcessed, wide.processingUnknown]).to.deep.equal([7, 5, 2, 2]);
  });

  it("reads only the household's own receipts, and a product gone from the table counts as unknown", async () => {
    const { deps, clock, owner, householdId } = await setup();
    const other = await account(deps, 'other');
    const otherHousehold = value(await createHousehold(deps, other, { name: 'Berg', timeZoneId: 'Europe/Oslo' })).id;
    value(await addReceipt(deps, other, otherHousehold, { purchasedAt: clock.now(), chain: 'Kiwi', lines: [line('Coca-Cola 1,5 l')] }));
    value(await addReceipt(deps, owner, householdId, { purchasedAt: clock.now(), chain: 'Kiwi', lines: [line('Norvegia 500 g')] }));
    expect(value(await purchaseClassification(deps, owner, householdId, 30))).to.deep.include({ linesTotal: 1, processed: 1, heavilyProcessed: 0 });
    await deps.foodTable.replaceAll([milk], clock.now());
    expect(value(await purchaseClassification(deps, owner, householdId, 30))).to.deep.include({ linesTotal: 1, linesRecognised: 0, processed: 0, processingUnknown: 1 });
  });
});
