import type { HouseholdId } from '../shared/ids.js';

/** Pantry vocabulary of api.md. The observation model that fills a row is documented in docs/pantry-model.md. */
export const STORAGE_LOCATIONS = ['Fridge', 'Freezer', 'Pantry', 'Unknown'] as const;
export type StorageLocation = (typeof STORAGE_LOCATIONS)[number];
export const INVENTORY_GROUPS = ['UseSoon', 'LikelyAvailable', 'Uncertain', 'Aged'] as const;
export type InventoryGroup = (typeof INVENTORY_GROUPS)[number];

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
