import type { Aisle } from '../core/pantry/types.js';
import type { FinishedTrip, HandOrder } from '../core/shopping/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';

/** A line ticked Purchased on a trip: which store the shopper was at, which list (of which plan) and line, its aisle. */
export interface AisleTick {
  readonly householdId: HouseholdId;
  /** The chain (or MY_STORE) the household shopped at. */
  readonly store: string;
  readonly listId: string;
  /** The plan whose list it is. */
  readonly planId: string;
  readonly lineId: string;
  readonly aisle: string;
  readonly at: Date;
}

/**
 * What a household's stores teach of their aisles: the log of ticks per store and list, and an order set by hand per
 * store. Everything is the household's own and goes with it; a list's ticks go with the list.
 */
export interface AisleOrderStore {
  /**
   * Appends a tick to the log; a line ticked again on the same list counts where it was ticked last (its earlier
   * tick goes). Then only the ticks of the store's newest `keepTrips` lists (by their last tick) are kept.
   */
  recordTick(tick: AisleTick, keepTrips: number): Promise<void>;
  /**
   * The store's newest `limit` finished trips with ticks: its lists whose trip is closed (completedAt set),
   * newest closed first, each with the aisles of its ticks in the order they were ticked.
   */
  finishedTrips(householdId: HouseholdId, store: string, limit: number): Promise<FinishedTrip[]>;
  handOrder(householdId: HouseholdId, store: string): Promise<HandOrder | null>;
  /** Sets (or replaces) the store's hand order. */
  setHandOrder(householdId: HouseholdId, store: string, aisles: readonly Aisle[], at: Date): Promise<void>;
  /** Forgets the store's hand order; false when there was none. */
  forgetHandOrder(householdId: HouseholdId, store: string): Promise<boolean>;
}
