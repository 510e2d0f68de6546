import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { FoodPrice, PriceProvider } from '../../ports/price-provider.js';
import type { FoodProduct } from './types.js';

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The default price provider: the synced food table's chain list prices. For each food key, the cheapest list
 * price among the products with that key at one of the asked chains; when none of them lists it, the cheapest at
 * any chain, marked isAggregate. Ties go to the chain name, then the product id (a stable answer). Prices are
 * compared as listed (per their own unit): the table holds one unit per food in practice.
 */
export function foodTablePrices(deps: { foodTable: FoodTableStore }): PriceProvider {
  // Asked on every shopping-list read (its 304 path included) with the same sync time until the next sync.
  let last: { time: number; text: string } | null = null;
  const revisionAt = (at: Date | null) => {
    if (at === null) return 'unsynced';
    if (last?.time !== at.getTime()) last = { time: at.getTime(), text: at.toISOString() };
    return last.text;
  };
  return {
    // Every sync replaces the table whole and records its time: the time names the prices.
    async revision() {
      return revisionAt(await deps.foodTable.lastSyncedAt());
    },
    revisionAt,
    async pricesFor(foodKeys, chains) {
      const out = new Map<string, FoodPrice>();
      if (foodKeys.length === 0) return out;
      const wanted = new Set(chains.map((c) => c.toLowerCase()));
      const byKey = new Map<string, FoodProduct[]>();
      for (const p of await deps.foodTable.byFoodKeys([...new Set(foodKeys)])) byKey.set(p.foodKey, [...(byKey.get(p.foodKey) ?? []), p]);
      for (const [foodKey, products] of byKey) {
        const offers = products.flatMap((p) => p.prices.map((price) => ({ product: p, price })));
        const own = offers.filter((o) => wanted.has(o.price.chain.toLowerCase()));
        const pool = own.length > 0 ? own : offers;
        const best = pool.sort((a, b) => a.price.price - b.price.price || cmp(a.price.chain, b.price.chain) || cmp(a.product.id, b.product.id))[0];
        if (!best) continue;
        out.set(foodKey, {
          foodKey,
          price: best.price.price,
          unit: best.price.unit,
          packageSize: best.price.packageSize,
          chain: best.price.chain,
          productName: best.product.name,
          isAggregate: own.length === 0,
          source: 'food-table',
        });
      }
      return out;
    },
  };
}
