import type { MealEvent } from '../core/events/types.js';
import type { HouseholdWithMembers } from '../core/households/types.js';
import type { PantryMerge, PantryObservation, UnitWeight } from '../core/pantry/types.js';
import type { Recipe } from '../core/recipes/types.js';
import type { PlanRow } from './plan-store.js';
import type { Derivation, ListStamp, ShoppingLine, ShoppingList, ShoppingListContent, ShoppingSettings } from '../core/shopping/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';
import type { OutboxEntry } from './push-outbox.js';

/** Writes that belong to a list change and land in its transaction (or not at all), the household's only. */
export interface ListEffects {
  /** Pantry observations written with the change (a trip's closing). */
  readonly addObservations?: readonly PantryObservation[];
  /** Pantry observations removed with the change, by id (a trip's reopening). */
  readonly removeObservations?: readonly string[];
  /** Push events recorded in the outbox with the change. */
  readonly pushes?: readonly OutboxEntry[];
  /**
   * Another list of the household changed in the same transaction (a closing carrying lines into the next week's
   * list, a reopening taking them back): `decide` answers its new content given it as stored (null: none stored;
   * `fresh` names the list made then), or null to leave it as it is.
   */
  readonly alsoChange?: { readonly planId: string; readonly fresh: { readonly listId: string }; readonly decide: (current: ShoppingList | null) => ShoppingListContent | null };
}

/**
 * What a change decided, given the stored list as it is inside the store's transaction (null: none stored yet).
 * `write: null` leaves the content as it is (and its version); `derivation`, when given, is recorded either way
 * without moving the version (undefined keeps the stored one); `effects` land only with a write. `result` is
 * handed back to the caller either way.
 */
export type ListChange<T> = (current: ShoppingList | null) => {
  readonly write: ShoppingListContent | null;
  readonly result: T;
  readonly derivation?: Derivation | null;
  readonly effects?: ListEffects;
};

/** What a read of a list checks before anything else, read together (one statement on a database). */
export interface ListState {
  /** The account is a member of the household. */
  readonly member: boolean;
  /** The plan's list without its lines (null: none stored). */
  readonly stamp: ListStamp | null;
  /** The household's input revision, as HouseholdRevisions.of answers it. */
  readonly householdRevision: string | null;
  /** When the food table was last synced, as FoodTableStore.lastSyncedAt answers it. */
  readonly foodTableSyncedAt: Date | null;
  /** The household's shopping settings (null: no such household). */
  readonly settings: ShoppingSettings | null;
}

/**
 * Everything a week's list is derived from, read at one moment (one statement on a database), each part as the
 * owning store answers it.
 */
export interface ShoppingInputs {
  /** HouseholdStore.byId. */
  readonly household: HouseholdWithMembers | null;
  readonly householdRevision: string | null;
  readonly foodTableSyncedAt: Date | null;
  /** PlanStore.byId. */
  readonly plan: PlanRow | null;
  /** MealEventReader.eventsBetween of the plan's week (none without the plan). */
  readonly events: readonly MealEvent[];
  /** The household's recipes among the plan's dishes and every base they reach, in no particular order. */
  readonly recipes: readonly Recipe[];
  /** PantryObservationStore.ofHousehold. */
  readonly observations: readonly PantryObservation[];
  /** PantryMergeReader.activeMerges. */
  readonly merges: readonly PantryMerge[];
  /** UnitWeightStore.list(householdId, null). */
  readonly unitWeights: readonly UnitWeight[];
}

/**
 * The stored shopping list of each weekly plan (one per plan) with its lines. Every change is one
 * read-decide-write step against the stored list: concurrent changes of one list are applied one after the
 * other (none is lost), and each content write bumps the list's version by one.
 */
export interface ShoppingListStore {
  byPlan(householdId: HouseholdId, planId: string): Promise<ShoppingList | null>;
  /** Every list of the household with its lines, as byPlan answers each, in one read (order not given): the export's. */
  ofHousehold(householdId: HouseholdId): Promise<ShoppingList[]>;
  /** The plan's list without its lines: one small read. */
  stamp(householdId: HouseholdId, planId: string): Promise<ListStamp | null>;
  /** The list's stamp with the account's membership and the revisions a derivation is checked against. */
  state(householdId: HouseholdId, planId: string, accountId: string): Promise<ListState>;
  /** The inputs of the plan's list, all read at one moment. */
  inputs(householdId: HouseholdId, planId: string): Promise<ShoppingInputs>;
  /** The list holding the line, when the line is the household's. */
  byLine(householdId: HouseholdId, lineId: string): Promise<ShoppingList | null>;
  /** The list a line was removed from by a person (its `Removed` change still kept), when the line was the household's. */
  byRemovedLine(householdId: HouseholdId, lineId: string): Promise<ShoppingList | null>;
  /**
   * Applies `decide` to the plan's stored list atomically; `fresh` names the list made when none exists and the
   * change writes. The caller has checked that the plan is the household's. Answers the list after the change.
   */
  change<T>(householdId: HouseholdId, planId: string, fresh: { listId: string }, decide: ListChange<T>): Promise<{ list: ShoppingList | null; result: T }>;
}

export type { ShoppingLine, ShoppingList, ShoppingListContent };
