import type { Clock } from '../../ports/clock.js';
import type { FoodSource } from '../../ports/food-source.js';
import type { FoodTableStore } from '../../ports/food-table-store.js';

export interface FoodSyncDeps {
  readonly foodSource: FoodSource;
  readonly foodTable: FoodTableStore;
  readonly clock: Clock;
}

/**
 * Replaces the food table with the source's catalogue (upsert by id, products gone from the source removed) and
 * records the time. A source that answers nothing is taken as a fault, not as "every product withdrawn": the
 * table is left as it was.
 */
export async function syncFoodTable(deps: FoodSyncDeps): Promise<{ products: number; upserted: number; removed: number }> {
  const products = await deps.foodSource.load();
  if (products.length === 0) throw new Error('the food source answered an empty catalogue; the food table is kept');
  const { upserted, removed } = await deps.foodTable.replaceAll(products, deps.clock.now());
  return { products: products.length, upserted, removed };
}

/** The start-up sync: only when the table is empty, so a fresh install has data. Answers whether it ran. */
export async function syncFoodTableIfEmpty(deps: FoodSyncDeps): Promise<boolean> {
  if ((await deps.foodTable.count()) > 0) return false;
  await syncFoodTable(deps);
  return true;
}
