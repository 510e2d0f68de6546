/** A price for a food, chosen by the provider. */
export interface FoodPrice {
  readonly foodKey: string;
  /** NOK for one `unit` (a package of `packageSize` when known). */
  readonly price: number;
  readonly unit: string;
  readonly packageSize: number | null;
  readonly chain: string;
  /** The product the price is of. */
  readonly productName: string;
  /** True when none of the asked chains lists the food and the price is the cheapest over every chain. */
  readonly isAggregate: boolean;
  /** Where the price comes from ('food-table': the synced chain list prices). */
  readonly source: 'food-table';
}

/**
 * Prices for foods at a household's chains. The answer holds only the food keys a price was found for; chains
 * match without regard to case. An empty `chains` means "no preference": every price is an aggregate.
 */
export interface PriceProvider {
  pricesFor(foodKeys: readonly string[], chains: readonly string[]): Promise<Map<string, FoodPrice>>;
  /**
   * A token that moves whenever the prices may have changed (equal tokens: the same answers); null when the
   * provider cannot tell, and lists are then priced again on every read.
   */
  revision(): Promise<string | null>;
  /**
   * For a provider whose revision is the food table's last sync: the revision for that time, as revision() would
   * answer, so a caller that read the time along with other state needs no read of its own.
   */
  revisionAt?(foodTableSyncedAt: Date | null): string;
}
