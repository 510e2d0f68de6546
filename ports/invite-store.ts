import type { HouseholdRole } from '../core/households/types.js';
import type { AccountId, HouseholdId, MemberId } from '../core/shared/ids.js';

export interface Invite {
  /** The code itself (not a secret kept from the household: adults list their open codes). */
  readonly code: string;
  readonly householdId: HouseholdId;
  readonly role: Exclude<HouseholdRole, 'Owner'>;
  /** The named person the code is for; null for an open invite (or once that person was removed). */
  readonly memberId: MemberId | null;
  readonly createdBy: AccountId;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
  readonly usedBy: AccountId | null;
}

export interface InviteStore {
  create(invite: Omit<Invite, 'usedAt' | 'usedBy'>): Promise<void>;
  /** Looked up across households: the code is what a joining person has. */
  byCode(code: string): Promise<Invite | null>;
  /** Unused and unexpired at `now`, newest first. */
  listOpen(householdId: HouseholdId, now: Date): Promise<Invite[]>;
  /** false when the household has no such code. */
  delete(householdId: HouseholdId, code: string): Promise<boolean>;
  /** Marks the code used, only if it still is unused: of simultaneous uses exactly one gets true. */
  markUsed(code: string, accountId: AccountId, at: Date): Promise<boolean>;
  /** A removed person's pending invites become open invites. */
  unlinkMember(householdId: HouseholdId, memberId: MemberId): Promise<void>;
}
