import type { IsoDate } from '../kernel/dates.js';
import type { HouseholdId } from '../kernel/ids.js';

/** Pantry vocabulary of the API. The observation model that fills a row is documented in docs/pantry-model.md. */
export const STORAGE_LOCATIONS = ['Fridge', 'Freezer', 'Pantry', 'Unknown'] as const;
export type StorageLocation = (typeof STORAGE_LOCATIONS)[number];
export const INVENTORY_GROUPS = ['UseSoon', 'LikelyAvailable', 'Uncertain', 'Aged'] as const;
export type InventoryGroup = (typeof INVENTORY_GROUPS)[number];
/** The groups of a shopping list, in the default walk of a typical Norwegian supermarket. */
export const AISLES = ['Produce', 'Dairy', 'Meat', 'Bakery', 'Frozen', 'Dry', 'Other'] as const;
export type Aisle = (typeof AISLES)[number];

/** One row of the pantry: one food, derived from its observations (never stored as such). */
export interface PantryRow {
  readonly foodKey: string;
  readonly displayName: string;
  readonly estimatedQuantity: number;
  readonly unit: string;
  readonly confidence: number;
  readonly storageLocation: StorageLocation;
  readonly usePriority: string;
  readonly lastEvidenceAt: Date;
  readonly aisle: string;
  readonly asksForDate: boolean;
  readonly lastEvidenceKind: string;
  readonly group: InventoryGroup;
  /** The best-before date the latest observation giving one said; null when none did since the row was last empty. */
  readonly bestBefore: IsoDate | null;
}

/** A merge the household confirmed: the `fromKey` food's observations count toward the `toKey` row. */
export interface PantryMerge {
  readonly householdId: HouseholdId;
  readonly fromKey: string;
  readonly toKey: string;
  readonly fromDisplayName: string;
  readonly toDisplayName: string;
  readonly mergedAt: Date;
}

/** What an observation says happened to a food (docs/pantry-model.md gives each its effect on the row). */
export const OBSERVATION_TYPES = ['Purchased', 'Seen', 'Estimated', 'Used', 'Gone'] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

/**
 * One entry of the household's pantry log. The log is append-only (an entry is only ever removed whole), and
 * every pantry row is derived from it; null fields leave the row's earlier value standing.
 */
export interface PantryObservation {
  readonly id: string;
  readonly householdId: HouseholdId;
  /** normalizeFoodKey of what the client sent. */
  readonly foodKey: string;
  readonly displayName: string | null;
  readonly observationType: ObservationType;
  readonly quantity: number | null;
  readonly unit: string | null;
  readonly storageLocation: StorageLocation | null;
  readonly confidence: number | null;
  /** The date printed on the pack (YYYY-MM-DD), when the observation gives one. */
  readonly bestBefore: IsoDate | null;
  readonly observedAt: Date;
}

/**
 * A "these are different foods" answer for an unordered pair of food keys, stored with keyA < keyB (code-unit
 * order), so that {a, b} and {b, a} are one answer.
 */
export interface PantryMergeRejection {
  readonly householdId: HouseholdId;
  readonly keyA: string;
  readonly keyB: string;
  readonly keyADisplayName: string;
  readonly keyBDisplayName: string;
  readonly decidedAt: Date;
}

/** The household's own weight of one unit of a food (e.g. 1 "stk" of "løk" = 110 g). */
export interface UnitWeight {
  readonly householdId: HouseholdId;
  readonly foodKey: string;
  readonly unit: string;
  readonly displayName: string;
  readonly grams: number;
  readonly updatedAt: Date;
}
