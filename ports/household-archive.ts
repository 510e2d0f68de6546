import type { MealEvent } from '../core/events/types.js';
import type { HouseholdWithMembers } from '../core/households/types.js';
import type { PantryMerge, PantryMergeRejection, PantryObservation, UnitWeight } from '../core/pantry/types.js';
import type { Recipe } from '../core/recipes/types.js';
import type { ShoppingList } from '../core/shopping/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';
import type { PlanRow } from './plan-store.js';
import type { RecipeImage } from './recipe-image.js';

/**
 * Everything a household keeps that travels with it to another instance (a household export, and a household
 * made from one), as the stores hold it. Accounts do not travel: members are named people, and no e-mail address,
 * password, session, push device, calendar feed address, invite or billing state is in it.
 */
export interface HouseholdArchive {
  readonly household: HouseholdWithMembers;
  /** Every recipe, a base before any recipe that uses it. */
  readonly recipes: readonly Recipe[];
  /** The kept pictures, by recipe id. */
  readonly images: readonly { readonly recipeId: string; readonly image: RecipeImage }[];
  /** Every plan, by week. */
  readonly plans: readonly PlanRow[];
  /** Every meal event, by date. */
  readonly events: readonly MealEvent[];
  /** The pantry log, in log order. */
  readonly observations: readonly PantryObservation[];
  /** The merges in force (not those split again). */
  readonly merges: readonly PantryMerge[];
  readonly rejections: readonly PantryMergeRejection[];
  readonly unitWeights: readonly UnitWeight[];
  /** The stored shopping list of each plan that has one (its derivation left out: it is derived again when read). */
  readonly shoppingLists: readonly ShoppingList[];
}

/**
 * Reads a household whole, and writes a new household whole. A read is one consistent snapshot; a write is one
 * transaction on a database (nothing of it is kept when any part fails). A write expects fresh ids throughout, a
 * base recipe before the recipes that use it, and every reference between its parts resolved
 * (core/transfer/import-household.ts checks all of that before it writes).
 */
export interface HouseholdArchiveStore {
  /** The household's archive; null when there is no such household. */
  read(householdId: HouseholdId): Promise<HouseholdArchive | null>;
  write(archive: HouseholdArchive): Promise<void>;
}
