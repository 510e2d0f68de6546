import type { DinnerPriceMeasurement, DinnerPricePublication, HouseholdType } from '../core/dinnerprices/types.js';

/** The dinner-price measurements (one per household type and ISO week) and the public files built from them. */
export interface DinnerPriceStore {
  /**
   * Records a measurement unless one of its household type and week is there: the first stands (also under
   * concurrent writers). Answers whether this one was written.
   */
  recordMeasurement(m: DinnerPriceMeasurement): Promise<boolean>;
  measurementOf(householdType: HouseholdType, week: string): Promise<DinnerPriceMeasurement | null>;
  /** Every measurement whose week starts before `beforeWeekStart` (`YYYY-MM-DD`), by weekStart, then household type (A to Z). */
  measurementsBefore(beforeWeekStart: string): Promise<DinnerPriceMeasurement[]>;
  /** Replaces the stored public files. */
  savePublication(p: DinnerPricePublication): Promise<void>;
  /** The stored public files; null before the first publication. */
  publication(): Promise<DinnerPricePublication | null>;
}
