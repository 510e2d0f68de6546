import type { IsoDate, MealEvent } from '../core/events/types.js';
import type { HouseholdId } from '../core/shared/ids.js';

/**
 * Meal events of a household. The full set of writes (create, runs, replace, delete, paging) belongs to the
 * meal-events use cases; plans read a week's events through `eventsBetween`.
 */
export interface MealEventReader {
  /** The household's events with from <= date <= to, ordered by date, then createdAt, then id. */
  eventsBetween(householdId: HouseholdId, from: IsoDate, to: IsoDate): Promise<MealEvent[]>;
}
