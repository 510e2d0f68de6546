import type { HouseholdId } from '../core/kernel/ids.js';

/**
 * A household's dinner calendar link. The token is a capability: whoever holds the `.ics` address reads the
 * household's dinners. It is stored as it is (members read the link back), looked up through a unique index.
 */
export interface DinnerCalendarLink {
  readonly householdId: HouseholdId;
  /** null while the household has turned the link off. */
  readonly token: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface DinnerCalendarStore {
  /** The household's link, or null when none was ever made. */
  linkOf(householdId: HouseholdId): Promise<DinnerCalendarLink | null>;
  /**
   * Makes the household's link with `token` unless it has one (active or turned off); answers the link that
   * stands. Concurrent calls all answer the same link.
   */
  ensure(householdId: HouseholdId, token: string, at: Date): Promise<DinnerCalendarLink>;
  /** Sets the token whatever stood before: a new one (reset), or null (turned off). */
  replace(householdId: HouseholdId, token: string | null, at: Date): Promise<DinnerCalendarLink>;
  /** The household whose active link has this token, or null (unknown, replaced or turned off). */
  householdOf(token: string): Promise<HouseholdId | null>;
}
