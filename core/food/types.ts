/** A chain's list price of one product: what the shelf says, in NOK, for one `unit` (a package of `packageSize`). */
export interface ChainPrice {
  readonly chain: string;
  readonly price: number;
  readonly unit: string;
  readonly packageSize: number | null;
}

export type NovaGroup = 1 | 2 | 3 | 4;
export type NutriScore = 'a' | 'b' | 'c' | 'd' | 'e';

/**
 * One product of the food table. The table is household-independent: every household matches its receipts
 * against the same products. `id` is the source's stable id (the sync upserts by it).
 */
export interface FoodProduct {
  readonly id: string;
  readonly ean: string | null;
  readonly name: string;
  readonly foodKey: string;
  readonly foodGroup: string;
  readonly novaGroup: NovaGroup;
  readonly nutriScore: NutriScore | null;
  readonly prices: readonly ChainPrice[];
}

export interface ReceiptLine {
  readonly productName: string;
  readonly ean: string | null;
  readonly quantity: number;
  readonly unitPrice: number | null;
  readonly totalPrice: number | null;
  /** The food-table product the line matched when it was recorded; null when unrecognised. */
  readonly productId: string | null;
}

export interface Receipt {
  readonly id: string;
  readonly householdId: string;
  readonly purchasedAt: Date;
  readonly chain: string;
  readonly lines: readonly ReceiptLine[];
  readonly createdAt: Date;
}

/** What a page of receipts shows of each. */
export interface ReceiptSummary {
  readonly id: string;
  readonly purchasedAt: Date;
  readonly chain: string;
  readonly linesTotal: number;
  readonly linesRecognised: number;
}

export const RECEIPT_LIMITS = {
  linesMax: 200,
  productNameMax: 200,
  chainMax: 100,
  eanMax: 32,
  quantityMax: 100_000,
  priceMax: 1_000_000,
  classificationDaysDefault: 30,
  classificationDaysMax: 365,
  examplesMax: 5,
} as const;
