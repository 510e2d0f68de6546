import type { ReferralCode } from '../core/reference/types.js';
import type { HouseholdId } from '../core/shared/ids.js';

export interface NewReferralCode {
  readonly code: string;
  readonly slot: number;
  readonly createdAt: Date;
}

/** Every read and write is scoped by the household the codes belong to. */
export interface ReferralCodeStore {
  /** The household's codes, used and unused, oldest first. */
  listOf(householdId: HouseholdId): Promise<ReferralCode[]>;
  /**
   * Adds each code whose slot holds no unused code of the household. A slot another writer filled first keeps
   * that writer's code and the one given here is dropped (so is one whose code is taken). Answers the codes added.
   */
  addToFreeSlots(householdId: HouseholdId, codes: readonly NewReferralCode[]): Promise<ReferralCode[]>;
  /** Spends an unused code of the household and frees its slot; null when it is not the household's or is spent. */
  markUsed(householdId: HouseholdId, code: string, at: Date): Promise<ReferralCode | null>;
}
