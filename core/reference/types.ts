import type { HouseholdId } from '../kernel/ids.js';

/** A supermarket loyalty programme of one country and the chains where it counts (reference data). */
export interface LoyaltyProgram {
  readonly id: string;
  readonly name: string;
  readonly chains: readonly string[];
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string;
}

/** Referral codes are this long: 12 characters of a 32-letter alphabet are 60 bits, too many to guess. */
export const REFERRAL_CODE_LENGTH = 12;

/** A single-use code a paying household hands out; it belongs to that household. */
export interface ReferralCode {
  readonly code: string;
  readonly householdId: HouseholdId;
  /**
   * Which of the household's places for unused codes (0 .. count-1) the code holds; null once used. One code per
   * place is what keeps two concurrent reads from minting more than the configured count.
   */
  readonly slot: number | null;
  readonly usedAt: Date | null;
  /** The account that redeemed it at registration; null while unused, or once that account is deleted. */
  readonly usedBy: string | null;
  readonly createdAt: Date;
}
