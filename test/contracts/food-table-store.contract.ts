import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { FoodProduct, Receipt } from '../../core/food/types.js';
import type { Backend, Stores } from './backends.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

export const product = (id: string, over: Partial<FoodProduct> = {}): FoodProduct => ({
  id,
  ean: `70${id.padStart(11, '0')}`.slice(0, 13),
  name: `Tine Lettmelk ${id}`,
  foodKey: 'lettmelk',
  foodGroup: 'Dairy',
  novaGroup: 1,
  nutriScore: 'b',
  prices: [
    { chain: 'Rema 1000', price: 21.9, unit: 'l', packageSize: 1.75 },
    { chain: 'Kiwi', price: 22.45, unit: 'l', packageSize: null },
  ],
  ...over,
});

async function household(s: Stores): Promise<string> {
  const { id } = await ownedHousehold(s, { plan: 'Plus', at: at('2026-02-01T12:00:00.500Z') });
  return id;
}

export function foodTableStoreContract(backend: Backend): void {
  storeSuite(backend, 'FoodTableStore', (s) => {
    it('round-trips products with their prices, a null EAN and a null Nutri-Score', async () => {
      const a = product('1');
      const b = product('2', { ean: null, name: 'Bananer løsvekt', foodKey: 'banan', foodGroup: 'Fruit', novaGroup: 4, nutriScore: null, prices: [] });
      expect(await s.foodTable.lastSyncedAt()).to.equal(null);
      expect(await s.foodTable.replaceAll([b, a], at('2026-05-04T04:41:00.123Z'))).to.deep.equal({ upserted: 2, removed: 0 });
      expect(await s.foodTable.byIds(['2', '1', 'nope'])).to.deep.equal([a, b]);
      expect(await s.foodTable.count()).to.equal(2);
      expect(await s.foodTable.lastSyncedAt()).to.deep.equal(at('2026-05-04T04:41:00.123Z'));
    });

    it('finds products by EAN, by normalized name and by food key', async () => {
      const a = product('1', { name: 'Tine Lettmelk 1 l' });
      const b = product('2', { ean: null, name: 'Bananer løsvekt', foodKey: 'banan' });
      await s.foodTable.replaceAll([a, b], at('2026-05-04T04:41:00.000Z'));
      expect(await s.foodTable.byEans([a.ean!, '7000000000000'])).to.deep.equal([a]);
      expect(await s.foodTable.byNameKeys(['tine-lettmelk-1-l', 'banan-løsvekt'])).to.deep.equal([a, b]);
      expect(await s.foodTable.byFoodKeys(['banan'])).to.deep.equal([b]);
      expect(await s.foodTable.byFoodKeys([])).to.deep.equal([]);
      expect(await s.foodTable.byFoodGroups([b.foodGroup, 'Nope'])).to.deep.equal([a, b].filter((p) => p.foodGroup === b.foodGroup));
      expect(await s.foodTable.byFoodGroups([])).to.deep.equal([]);
    });

    it('upserts by id and removes the products the source no longer has, recording the new time', async () => {
      await s.foodTable.replaceAll([product('1'), product('2'), product('3')], at('2026-05-03T04:41:00.000Z'));
      const changed = product('2', { name: 'Q Lettmelk', novaGroup: 2, prices: [{ chain: 'Coop Extra', price: 19.5, unit: 'l', packageSize: 1 }] });
      expect(await s.foodTable.replaceAll([changed, product('4')], at('2026-05-04T04:41:00.000Z'))).to.deep.equal({ upserted: 2, removed: 2 });
      expect(await s.foodTable.byIds(['1', '2', '3', '4'])).to.deep.equal([changed, product('4')]);
      expect(await s.foodTable.count()).to.equal(2);
      expect(await s.foodTable.lastSyncedAt()).to.deep.equal(at('2026-05-04T04:41:00.000Z'));
    });

    it('reads every product a page at a time, ordered by id', async () => {
      expect(await s.foodTable.productsAfter(null, 10)).to.deep.equal([]);
      const all = ['ean-7010000000019', 'ean-7010000000026', 'a-1', 'b-2', 'B-3'].map((id) => product(id, { ean: null }));
      await s.foodTable.replaceAll(all, at('2026-05-04T04:41:00.000Z'));
      const ordered = [...all].sort((a, b) => (a.id < b.id ? -1 : 1));
      const first = await s.foodTable.productsAfter(null, 2);
      expect(first).to.deep.equal(ordered.slice(0, 2));
      expect(await s.foodTable.productsAfter(first[1]!.id, 2)).to.deep.equal(ordered.slice(2, 4));
      expect(await s.foodTable.productsAfter(ordered[3]!.id, 2)).to.deep.equal(ordered.slice(4));
      expect(await s.foodTable.productsAfter(ordered[4]!.id, 2)).to.deep.equal([]);
    });
  });
}

const receipt = (householdId: string, purchasedAt: string, over: Partial<Receipt> = {}): Receipt => ({
  id: randomUUID(),
  householdId,
  purchasedAt: at(purchasedAt),
  chain: 'Kiwi',
  createdAt: at('2026-05-04T09:00:00.000Z'),
  lines: [
    { productName: 'Tine Lettmelk 1 l', ean: '7010000000019', quantity: 2, unitPrice: 21.9, totalPrice: 43.8, productId: 'ean-7010000000019' },
    { productName: 'Pant', ean: null, quantity: 0.5, unitPrice: null, totalPrice: null, productId: null },
  ],
  ...over,
});

export function receiptStoreContract(backend: Backend): void {
  storeSuite(backend, 'ReceiptStore', (s) => {
    it('round-trips the lines of a receipt, scoped to the household', async () => {
      const h = await household(s);
      const other = await household(s);
      const r = receipt(h, '2026-05-03T15:30:00.250Z');
      await s.receipts.add(r);
      expect(await s.receipts.linesSince(h, at('2026-05-03T15:30:00.250Z'))).to.deep.equal(r.lines);
      expect(await s.receipts.linesSince(h, at('2026-05-03T15:30:00.251Z'))).to.deep.equal([]);
      expect(await s.receipts.linesSince(other, at('2026-01-01T00:00:00.000Z'))).to.deep.equal([]);
      expect(await s.receipts.page(h, { after: null, limit: 10 })).to.deep.equal({
        items: [{ id: r.id, purchasedAt: r.purchasedAt, chain: 'Kiwi', linesTotal: 2, linesRecognised: 1 }],
        more: false,
        total: 1,
      });
      expect(await s.receipts.page(other, { after: null, limit: 10 })).to.deep.equal({ items: [], more: false, total: 0 });
    });

    it('pages newest purchase first and continues after a position; lines come oldest receipt first', async () => {
      const h = await household(s);
      const old = receipt(h, '2026-04-01T10:00:00.000Z');
      const mid = receipt(h, '2026-04-15T10:00:00.000Z');
      const recent = receipt(h, '2026-05-01T10:00:00.000Z', { lines: [{ productName: 'Brus', ean: null, quantity: 1, unitPrice: 29.9, totalPrice: null, productId: null }] });
      for (const r of [mid, recent, old]) await s.receipts.add(r);
      const first = await s.receipts.page(h, { after: null, limit: 2 });
      expect(first.items.map((i) => i.id)).to.deep.equal([recent.id, mid.id]);
      expect([first.more, first.total]).to.deep.equal([true, 3]);
      const second = await s.receipts.page(h, { after: { purchasedAt: mid.purchasedAt, id: mid.id }, limit: 2 });
      expect(second.items.map((i) => i.id)).to.deep.equal([old.id]);
      expect(second.more).to.equal(false);
      const lines = await s.receipts.linesSince(h, at('2026-04-10T00:00:00.000Z'));
      expect(lines.map((l) => l.productName)).to.deep.equal(['Tine Lettmelk 1 l', 'Pant', 'Brus']);
    });

    it('drops the receipts with their household', async () => {
      const h = await household(s);
      await s.receipts.add(receipt(h, '2026-05-03T15:30:00.000Z'));
      await s.households.delete(h);
      expect(await s.receipts.page(h, { after: null, limit: 10 })).to.deep.equal({ items: [], more: false, total: 0 });
      expect(await s.receipts.linesSince(h, at('2026-01-01T00:00:00.000Z'))).to.deep.equal([]);
    });
  });
}
