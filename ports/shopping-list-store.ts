import type { ShoppingLine, ShoppingList, ShoppingListContent } from '../core/shopping/types.js';
import type { HouseholdId } from '../core/shared/ids.js';

/**
 * What a change decided, given the stored list as it is inside the store's transaction (null: none stored yet).
 * `write: null` leaves the list as it is (and its version); `result` is handed back to the caller either way.
 */
export type ListChange<T> = (current: ShoppingList | null) => { readonly write: ShoppingListContent | null; readonly result: T };

/**
 * The stored shopping list of each weekly plan (one per plan) with its lines. Every change is one
 * read-decide-write step against the stored list: concurrent changes of one list are applied one after the
 * other (none is lost), and each write bumps the list's version by one.
 */
export interface ShoppingListStore {
  byPlan(householdId: HouseholdId, planId: string): Promise<ShoppingList | null>;
  /** The list holding the line, when the line is the household's. */
  byLine(householdId: HouseholdId, lineId: string): Promise<ShoppingList | null>;
  /**
   * Applies `decide` to the plan's stored list atomically; `fresh` names the list made when none exists and the
   * change writes. The caller has checked that the plan is the household's. Answers the list after the change.
   */
  change<T>(householdId: HouseholdId, planId: string, fresh: { listId: string }, decide: ListChange<T>): Promise<{ list: ShoppingList | null; result: T }>;
}

export type { ShoppingLine, ShoppingList, ShoppingListContent };
