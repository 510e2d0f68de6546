import type { UnitWeight } from '../core/pantry/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';

/** The household's grams per food and unit: one answer per (food, unit). */
export interface UnitWeightStore {
  /** The household's weights, ordered by foodKey then unit; only those of `foodKey` when given. */
  list(householdId: HouseholdId, foodKey: string | null): Promise<UnitWeight[]>;
  get(householdId: HouseholdId, foodKey: string, unit: string): Promise<UnitWeight | null>;
  /** Insert or replace (retry-safe: concurrent puts of one food and unit leave one row). Answers the stored row. */
  put(weight: UnitWeight): Promise<UnitWeight>;
  /** False when there was none. */
  remove(householdId: HouseholdId, foodKey: string, unit: string): Promise<boolean>;
}
