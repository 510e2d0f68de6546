import type { IsoDate, MealEvent } from '../core/events/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';

/**
 * Meal events of a household. The full set of writes (create, runs, replace, delete, paging) belongs to the
 * meal-events use cases; plans read a week's events through `eventsBetween`.
 */
export interface MealEventReader {
  /** The household's events with from <= date <= to, ordered by date, then createdAt, then id. */
  eventsBetween(householdId: HouseholdId, from: IsoDate, to: IsoDate): Promise<MealEvent[]>;
}

/** Where a page of events ended, in the list's order (date, then createdAt, then id). */
export interface EventPosition {
  readonly date: IsoDate;
  readonly createdAt: Date;
  readonly id: string;
}

export interface EventPageQuery {
  /** Inclusive bounds; null for open. */
  readonly from: IsoDate | null;
  readonly to: IsoDate | null;
  /** The page starts after this position; null for the first page. */
  readonly after: EventPosition | null;
  readonly limit: number;
}

/**
 * Every write that touches several events (a run, a run's edit) is one transaction: a reader, or a second writer,
 * sees all of it or none of it.
 */
export interface MealEventStore extends MealEventReader {
  /** Writes the events with their participants (kept in the order given): all or none. */
  create(events: readonly MealEvent[]): Promise<void>;
  byId(householdId: HouseholdId, eventId: string): Promise<MealEvent | null>;
  /** The household's events among `eventIds` (others are left out), in list order. */
  byIds(householdId: HouseholdId, eventIds: readonly string[]): Promise<MealEvent[]>;
  /** One page in list order. */
  page(householdId: HouseholdId, query: EventPageQuery): Promise<MealEvent[]>;
  /**
   * Replaces each event of `replace` whole (every field and the participant list; id, household and createdAt
   * stay) and removes the events `remove`, in one transaction. False, with nothing written, when any of the ids
   * is not an event of the household.
   */
  rewrite(householdId: HouseholdId, replace: readonly MealEvent[], remove: readonly string[]): Promise<boolean>;
}
