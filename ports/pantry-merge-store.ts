import type { PantryMerge } from '../core/pantry/types.js';
import type { HouseholdId } from '../core/shared/ids.js';

/** The merges that stand: how the pantry model folds one food key into another. */
export interface PantryMergeReader {
  activeMerges(householdId: HouseholdId): Promise<PantryMerge[]>;
}
