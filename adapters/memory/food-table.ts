import type { FoodProduct, Receipt, ReceiptSummary } from '../../core/food/types.js';
import { normalizeFoodKey } from '../../core/kernel/food-key.js';
import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { ReceiptStore } from '../../ports/receipt-store.js';
import type { MemoryTables } from './stores.js';

const copy = <T>(v: T): T => structuredClone(v);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// Kept with the tables (as the pantry merges are), so every store over one set of tables sees one food table.
const foodOf = new WeakMap<MemoryTables, { products: Map<string, FoodProduct>; syncedAt: Date | null }>();
const receiptsOf = new WeakMap<MemoryTables, Map<string, Receipt>>();

export function memoryFoodTableStore(t: MemoryTables): FoodTableStore {
  let food = foodOf.get(t);
  if (!food) foodOf.set(t, (food = { products: new Map(), syncedAt: null }));
  const f = food;
  const where = (keep: (p: FoodProduct) => boolean) => [...f.products.values()].filter(keep).sort((a, b) => cmp(a.id, b.id)).map(copy);
  return {
    async replaceAll(products, at) {
      const ids = new Set(products.map((p) => p.id));
      let removed = 0;
      for (const id of [...f.products.keys()]) if (!ids.has(id) && f.products.delete(id)) removed++;
      for (const p of products) f.products.set(p.id, copy(p));
      f.syncedAt = new Date(at.getTime());
      return { upserted: ids.size, removed };
    },
    async lastSyncedAt() {
      return f.syncedAt ? new Date(f.syncedAt.getTime()) : null;
    },
    async count() {
      return f.products.size;
    },
    async byIds(ids) {
      const s = new Set(ids);
      return where((p) => s.has(p.id));
    },
    async byEans(eans) {
      const s = new Set(eans);
      return where((p) => p.ean !== null && s.has(p.ean));
    },
    async byNameKeys(keys) {
      const s = new Set(keys);
      return where((p) => s.has(normalizeFoodKey(p.name)));
    },
    async byFoodKeys(keys) {
      const s = new Set(keys);
      return where((p) => s.has(p.foodKey));
    },
    async byFoodGroups(groups) {
      const s = new Set(groups);
      return where((p) => s.has(p.foodGroup));
    },
    async productsAfter(afterId, limit) {
      return where((p) => afterId === null || cmp(p.id, afterId) > 0).slice(0, limit);
    },
  };
}

const summary = (r: Receipt): ReceiptSummary => ({
  id: r.id,
  purchasedAt: new Date(r.purchasedAt.getTime()),
  chain: r.chain,
  linesTotal: r.lines.length,
  linesRecognised: r.lines.filter((l) => l.productId !== null).length,
});

/** Receipts of a household that is gone are gone too (the SQL cascade), checked on every access. */
export function memoryReceiptStore(t: MemoryTables): ReceiptStore {
  let receipts = receiptsOf.get(t);
  if (!receipts) receiptsOf.set(t, (receipts = new Map()));
  const all = receipts;
  const of = (householdId: string) =>
    t.households.has(householdId)
      ? [...all.values()].filter((r) => r.householdId === householdId).sort((a, b) => b.purchasedAt.getTime() - a.purchasedAt.getTime() || cmp(b.id, a.id))
      : [];
  return {
    async add(receipt) {
      all.set(receipt.id, copy(receipt));
    },
    async page(householdId, { after, limit }) {
      const mine = of(householdId);
      const rest = after
        ? mine.filter((r) => r.purchasedAt.getTime() < after.purchasedAt.getTime() || (r.purchasedAt.getTime() === after.purchasedAt.getTime() && r.id < after.id))
        : mine;
      return { items: rest.slice(0, limit).map(summary), more: rest.length > limit, total: mine.length };
    },
    async linesSince(householdId, since) {
      return of(householdId)
        .filter((r) => r.purchasedAt.getTime() >= since.getTime())
        .reverse()
        .flatMap((r) => r.lines.map(copy));
    },
  };
}
