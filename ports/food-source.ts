import type { FoodProduct } from '../core/food/types.js';

/** Where the food table comes from (the embedded sample catalogue by default; a real feed later). */
export interface FoodSource {
  /** The whole current catalogue; ids are stable between loads. */
  load(): Promise<FoodProduct[]>;
}
