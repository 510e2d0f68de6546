import type { HouseholdId } from '../core/kernel/ids.js';

/** What a commit may have changed, as the live stream needs to know it. */
export type HouseholdChange =
  /** What members of the household see (its list, week, recipes, pantry, settings, members); null: any household's. */
  | { readonly kind: 'household'; readonly householdId: HouseholdId | null }
  /** Sign-ins, accounts or memberships: who may still see which household is to be checked again. */
  | { readonly kind: 'access' };

/**
 * Tells the live stream (core/households/live.ts) when a household's shared state changed, whichever process of
 * the service wrote it, and what that state is now. A signal may come for a change that a member cannot see (a
 * list's bookkeeping, another household's write on a store that cannot tell households apart): the states tell.
 */
export interface HouseholdChangeFeed {
  /**
   * The state of each household named, as an opaque token (equal tokens: nothing its members see changed in
   * between); a household that does not exist is left out.
   */
  states(householdIds: readonly HouseholdId[]): Promise<ReadonlyMap<HouseholdId, string>>;
  /**
   * Calls `listener` after every commit that may have changed a household's state or who may see it, of this
   * process at once and of other processes sharing the database as soon as the database tells (and with a
   * change of every household whenever that telling was interrupted). Answers the function that stops it.
   */
  watch(listener: (change: HouseholdChange) => void): () => void;
}
