import type { FoodProduct } from '../core/food/types.js';

/** The household-independent food table, filled by the sync. */
export interface FoodTableStore {
  /**
   * In one transaction: upserts every product by id and removes the products not among them; records `at` as
   * the time of the last sync. Answers how many products were written and removed.
   */
  replaceAll(products: readonly FoodProduct[], at: Date): Promise<{ upserted: number; removed: number }>;
  /** When replaceAll last ran; null before the first sync. */
  lastSyncedAt(): Promise<Date | null>;
  count(): Promise<number>;
  /** Products by id, by EAN, by normalized product name (normalizeFoodKey of the name), by food key; ordered by id. */
  byIds(ids: readonly string[]): Promise<FoodProduct[]>;
  byEans(eans: readonly string[]): Promise<FoodProduct[]>;
  byNameKeys(nameKeys: readonly string[]): Promise<FoodProduct[]>;
  byFoodKeys(foodKeys: readonly string[]): Promise<FoodProduct[]>;
  /** Products of the given food-table groups (foodGroup), ordered by id. */
  byFoodGroups(groups: readonly string[]): Promise<FoodProduct[]>;
  /** Every product a page at a time, ordered by id: those after `afterId` (null: from the first), at most `limit`. */
  productsAfter(afterId: string | null, limit: number): Promise<FoodProduct[]>;
}
