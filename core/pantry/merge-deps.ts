import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { PageCursors } from '../../ports/page-cursors.js';
import type { PantryMergeStore } from '../../ports/pantry-merge-store.js';
import type { UnitWeightStore } from '../../ports/unit-weight-store.js';
import type { PantryDeps } from './rows.js';

/** The merge answers' use cases: the row model's reads (pantryRows) and the merge store's writes. */
export interface PantryMergeDeps extends Pick<PantryDeps, 'pantry'> {
  households: HouseholdStore;
  pantryMerges: PantryMergeStore;
  pageCursors: PageCursors;
  clock: Clock;
}

export interface UnitWeightDeps extends Pick<PantryDeps, 'pantry'> {
  households: HouseholdStore;
  pantryMerges: PantryMergeStore;
  unitWeights: UnitWeightStore;
  clock: Clock;
}
