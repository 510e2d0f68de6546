import type { Receipt, ReceiptLine, ReceiptSummary } from '../core/food/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';

/** Where a page of receipts continues: after this receipt in (purchasedAt desc, id desc) order. */
export interface ReceiptPosition {
  readonly purchasedAt: Date;
  readonly id: string;
}

/** A household's receipts; gone with the household. */
export interface ReceiptStore {
  add(receipt: Receipt): Promise<void>;
  /** Newest purchase first (purchasedAt desc, id desc); total counts all the household's receipts. */
  page(householdId: HouseholdId, query: { after: ReceiptPosition | null; limit: number }): Promise<{ items: ReceiptSummary[]; more: boolean; total: number }>;
  /** Lines of the household's receipts purchased at or after `since`, in receipt then line order. */
  linesSince(householdId: HouseholdId, since: Date): Promise<ReceiptLine[]>;
}
