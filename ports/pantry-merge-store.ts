import type { HouseholdId } from '../core/kernel/ids.js';
import type { PantryMerge, PantryMergeRejection } from '../core/pantry/types.js';

/** The merges that stand: how the pantry model folds one food key into another. */
export interface PantryMergeReader {
  activeMerges(householdId: HouseholdId): Promise<PantryMerge[]>;
}

/** Where a page of merges ended, in list order (toKey ascending, then mergedAt newest first, then fromKey). */
export interface MergePosition {
  readonly toKey: string;
  readonly mergedAt: Date;
  readonly fromKey: string;
}

/** Where a page of rejections ended, in list order (decidedAt newest first, then keyA, then keyB). */
export interface RejectionPosition {
  readonly decidedAt: Date;
  readonly keyA: string;
  readonly keyB: string;
}

/**
 * The household's answers about pairs of food keys: merges ("the same food") and rejections ("different foods").
 * Invariant kept by `merge`: merges never chain, so no toKey is itself a fromKey and the row model folds each
 * key in one step. Every write is one transaction, serialized per household.
 */
export interface PantryMergeStore extends PantryMergeReader {
  mergeOf(householdId: HouseholdId, fromKey: string): Promise<PantryMerge | null>;
  /**
   * Stores `merge` (replacing an earlier merge of its fromKey), points every merge into merge.fromKey at
   * merge.toKey instead, and removes the rejection of the pair. 'target-merged', with nothing written, when
   * merge.toKey is itself merged into another key, or merge.fromKey is the target of merge.toKey.
   */
  merge(merge: PantryMerge): Promise<'merged' | 'target-merged'>;
  /**
   * Removes the merge of fromKey and remembers the pair as different foods (a rejection decided at `decidedAt`,
   * with the merge's display names, unless the pair has one). Answers the removed merge; null when none stood.
   */
  split(householdId: HouseholdId, fromKey: string, decidedAt: Date): Promise<PantryMerge | null>;
  pageMerges(householdId: HouseholdId, query: { after: MergePosition | null; limit: number }): Promise<PantryMerge[]>;
  countMerges(householdId: HouseholdId): Promise<number>;

  /** All rejections of the household (for suggestions), in list order. */
  rejections(householdId: HouseholdId): Promise<PantryMergeRejection[]>;
  /**
   * Stores the rejection unless the pair has one already (the first answer's date stays), and removes a merge
   * standing directly between the two keys (the latest answer wins). keyA < keyB.
   */
  reject(rejection: PantryMergeRejection): Promise<void>;
  /** False when the pair had no rejection. keyA < keyB. */
  removeRejection(householdId: HouseholdId, keyA: string, keyB: string): Promise<boolean>;
  pageRejections(householdId: HouseholdId, query: { after: RejectionPosition | null; limit: number }): Promise<PantryMergeRejection[]>;
  countRejections(householdId: HouseholdId): Promise<number>;
}
