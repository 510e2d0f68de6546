import type { PantryObservation } from '../core/pantry/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';

/**
 * The pantry log of each household. Reads answer in log order: observedAt, then the order written (two
 * observations in the same millisecond keep the order they were added in).
 */
export interface PantryObservationStore {
  add(observation: PantryObservation): Promise<void>;
  /**
   * Adds observations as `add` one after the other would (in the order given, which is the log's order within a
   * millisecond), in few statements: an import writes tens of thousands. Throws, having added none on a database
   * transaction's rollback, when one cannot be added.
   */
  addAll(observations: readonly PantryObservation[]): Promise<void>;
  /**
   * Adds the observation to the household's log and answers its food's log: the household's observations of these
   * food keys (the food's own and those merged into it) in log order, the new one among them when its key is
   * listed. It is what a recorded observation's pantry row is derived from.
   */
  addToFoodLog(observation: PantryObservation, foodKeys: readonly string[]): Promise<PantryObservation[]>;
  /**
   * Every observation of the household, in log order: one query, whatever the number of foods. A store may answer
   * the same frozen log to every read while the household's pantry is unchanged (the pantry model then folds it once).
   */
  ofHousehold(householdId: HouseholdId): Promise<readonly PantryObservation[]>;
  /** The household's observations of these food keys, in log order. */
  ofFoods(householdId: HouseholdId, foodKeys: readonly string[]): Promise<PantryObservation[]>;
  /** False when no observation of the household has this id. */
  remove(householdId: HouseholdId, observationId: string): Promise<boolean>;
  /** Removes the household's observations of these food keys (null: every one); answers how many went. */
  removeOfFoods(householdId: HouseholdId, foodKeys: readonly string[] | null): Promise<number>;
}
