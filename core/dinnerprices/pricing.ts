import type { FoodProduct } from '../food/types.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import { convert, tidy, unitOf } from '../food/units.js';
import type { LibraryIngredient, LibraryRecipe } from '../../ports/recipe-library.js';

/** One chain's list price of one product, per one of the product's units. */
interface Offer {
  readonly chain: string;
  readonly productId: string;
  readonly unit: string;
  /** NOK for one package of `size` units. */
  readonly price: number;
  readonly size: number;
}

/** Every offer of the food table, by food key. */
export type PriceBook = ReadonlyMap<string, readonly Offer[]>;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const positive = (n: number | null): n is number => n !== null && Number.isFinite(n) && n > 0;

/**
 * The list prices by food key. A list price is NOK for one package of `packageSize` units (or for one unit when
 * the size is not known): its price per unit is price ÷ packageSize. Prices or sizes that are not positive are
 * left out.
 */
export function priceBookOf(products: readonly FoodProduct[]): PriceBook {
  const book = new Map<string, Offer[]>();
  for (const p of products) {
    for (const c of p.prices) {
      const size = c.packageSize ?? 1;
      if (!positive(c.price) || !positive(size)) continue;
      const key = normalizeFoodKey(p.foodKey);
      const offers = book.get(key) ?? [];
      offers.push({ chain: c.chain, productId: p.id, unit: unitOf(c.unit), price: c.price, size });
      book.set(key, offers);
    }
  }
  return book;
}

/** What one recipe line costs; `chain` is null for a line that buys nothing (to taste). */
export type LineCost = { readonly cost: number; readonly chain: string | null };

/**
 * The proportional cost of `quantity` (in the line's unit) of a food: the amount converted to an offer's unit
 * times that offer's price per unit, at the cheapest offer of any chain whose unit the amount converts to (ties:
 * chain name, then product id). Null when no offer converts (pieces never convert to mass here: that needs a
 * household's piece weight). A line without a positive quantity (to taste) costs nothing and needs no price.
 */
export function lineCost(book: PriceBook, line: LibraryIngredient, factor: number): LineCost | null {
  if (line.quantity === null || !(line.quantity > 0)) return { cost: 0, chain: null };
  const unit = unitOf(line.unit);
  const amount = line.quantity * factor;
  let best: { cost: number; offer: Offer } | null = null;
  for (const offer of book.get(normalizeFoodKey(line.foodKey)) ?? []) {
    const q = convert(amount, unit, offer.unit);
    if (q === null) continue;
    const cost = tidy((q * offer.price) / offer.size);
    if (best === null || cost < best.cost || (cost === best.cost && (cmp(offer.chain, best.offer.chain) || cmp(offer.productId, best.offer.productId)) < 0)) best = { cost, offer };
  }
  return best === null ? null : { cost: best.cost, chain: best.offer.chain };
}

/**
 * A week of dinners for `portions` portions a day: each recipe scaled by portions ÷ its servings, every line
 * priced by lineCost. Null when any line of any dinner has no price (the week is not fully priced).
 */
export function weekCost(book: PriceBook, dinners: readonly LibraryRecipe[], portions: number): { cost: number; chains: ReadonlySet<string> } | null {
  let cost = 0;
  const chains = new Set<string>();
  for (const recipe of dinners) {
    if (!(recipe.servings > 0)) return null;
    const factor = portions / recipe.servings;
    for (const line of recipe.ingredients) {
      const c = lineCost(book, line, factor);
      if (c === null) return null;
      cost += c.cost;
      if (c.chain !== null) chains.add(c.chain);
    }
  }
  return { cost, chains };
}
