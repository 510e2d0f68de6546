import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { PageCursors } from '../../ports/page-cursors.js';
import type { PantryMergeReader } from '../../ports/pantry-merge-store.js';
import type { PantryObservationStore } from '../../ports/pantry-observation-store.js';
import type { HouseholdId } from '../kernel/ids.js';
import { pantryRowsOf } from './model.js';
import type { PantryRow } from './types.js';

/** What the pantry's observation and inventory use cases need. */
export interface PantryDeps {
  pantry: PantryObservationStore;
  pantryMerges: PantryMergeReader;
  households: HouseholdStore;
  pageCursors: PageCursors;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * Every row of the household's pantry at the clock's now, merges applied, in list order (Aged and empty rows
 * included): one read of the log and one of the merges. For suggestions, merge answers and the shopping list.
 */
export async function pantryRows(deps: Pick<PantryDeps, 'pantry' | 'pantryMerges' | 'clock'>, householdId: HouseholdId): Promise<PantryRow[]> {
  const [observations, merges] = await Promise.all([deps.pantry.ofHousehold(householdId), deps.pantryMerges.activeMerges(householdId)]);
  return pantryRowsOf(observations, merges, deps.clock.now());
}
