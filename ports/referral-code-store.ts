import type { ReferralCode } from '../core/reference/types.js';
import type { HouseholdId } from '../core/kernel/ids.js';

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
  /**
   * Spends an unused code, whichever household's it is, for the account registering with it, and frees its slot:
   * the one write not scoped by a household, because the new account belongs to none and the code itself is what
   * it holds. Of concurrent redemptions of one code exactly one answers the spent code; the others, and any
   * redemption of an unknown or spent code, answer null and change nothing.
   */
  redeem(code: string, accountId: string, at: Date): Promise<ReferralCode | null>;
}
