import type { HouseholdRole, Member } from '../core/households/types.js';
import type { AccountId, HouseholdId, MemberId } from '../core/kernel/ids.js';
import type { NewMember } from './household-store.js';
import type { OutboxEntry } from './push-outbox.js';

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
  /** Unused ones expiring after `since` (the open ones among them) and those used after `since`, newest first. */
  listSince(householdId: HouseholdId, since: Date): Promise<Invite[]>;
  /** false when the household has no such code. */
  delete(householdId: HouseholdId, code: string): Promise<boolean>;
  /**
   * Uses a code, in one transaction: marks it used (only if it still is unused: of simultaneous uses exactly one
   * wins), links the account to the code's named person when that person is still in the household without an
   * account (with the code's role), else adds `newMember`, and records the push `joined` makes of the member.
   * All of it or none: `code-used` when the code was used already (another use won), `member-already` when the
   * account is in the household already (nothing written, the code stays unused).
   */
  accept(use: InviteUse): Promise<Member | 'code-used' | 'member-already'>;
  /** A removed person's pending invites become open invites. */
  unlinkMember(householdId: HouseholdId, memberId: MemberId): Promise<void>;
}

/** What accepting a code writes. */
export interface InviteUse {
  readonly code: string;
  readonly accountId: AccountId;
  readonly at: Date;
  /** The row added when the code names nobody, or its person was claimed or removed meanwhile. */
  readonly newMember: NewMember;
  /** The push recorded with the join, of the member the account became. */
  readonly joined: (member: Member) => OutboxEntry;
}
