import type { PantryObservation } from '../core/pantry/types.js';
import type { HouseholdId } from '../core/shared/ids.js';

/**
 * The pantry log of each household. Reads answer in log order: observedAt, then the order written (two
 * observations in the same millisecond keep the order they were added in).
 */
export interface PantryObservationStore {
  add(observation: PantryObservation): Promise<void>;
  /**
   * Adds the observation, then answers the household's observations of these food keys in log order (the new
   * one among them when its key is listed): what a recorded observation's row is derived from, in one round trip
   * where the database allows.
   */
  addThenOfFoods(observation: PantryObservation, foodKeys: readonly string[]): Promise<PantryObservation[]>;
  /** Every observation of the household, in log order: one query, whatever the number of foods. */
  ofHousehold(householdId: HouseholdId): Promise<PantryObservation[]>;
  /** The household's observations of these food keys, in log order. */
  ofFoods(householdId: HouseholdId, foodKeys: readonly string[]): Promise<PantryObservation[]>;
  /** False when no observation of the household has this id. */
  remove(householdId: HouseholdId, observationId: string): Promise<boolean>;
  /** Removes the household's observations of these food keys (null: every one); answers how many went. */
  removeOfFoods(householdId: HouseholdId, foodKeys: readonly string[] | null): Promise<number>;
}
