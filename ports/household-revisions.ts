import type { HouseholdId } from '../core/kernel/ids.js';

/**
 * The revision of what a week's shopping list is derived from: the household's settings and members, its recipes,
 * meal events, plans and pantry (observations, merges, unit weights). Every write to any of those moves it, in
 * the writing transaction; nothing else does (the shopping list's own writes included). A derivation that read
 * the revision before its inputs and stored it with its result is current while the revision still reads the same.
 */
export interface HouseholdRevisions {
  /** An opaque token (equal tokens: none of those inputs changed in between); null for an unknown household. */
  of(householdId: HouseholdId): Promise<string | null>;
}
