import type { AgeGroup, Household, HouseholdRole, HouseholdWithMembers, Member, Membership, Language } from '../core/households/types.js';
import type { AccountId, HouseholdId, MemberId } from '../core/kernel/ids.js';

/** A new household; its shopping settings start as sharing on and the price catalogue on, the library off, unless given. */
export type NewHousehold = Omit<Household, 'updatedAt' | 'sharingOff' | 'priceCatalogueOn' | 'dislikes' | 'libraryRecipesOn' | 'leftoversKeepDays'> &
  Partial<Pick<Household, 'sharingOff' | 'priceCatalogueOn' | 'dislikes' | 'libraryRecipesOn' | 'leftoversKeepDays'>>;
/** A member row to add: an age group left out is Adult (as every member was before members had one). */
export type NewMember = Omit<Member, 'householdId' | 'ageGroup'> & { readonly ageGroup?: AgeGroup };

export interface HouseholdChanges {
  readonly name?: string;
  readonly timeZoneId?: string;
  readonly language?: Language;
  readonly dinnerTime?: string;
  readonly chains?: readonly string[];
  readonly sharingOff?: boolean;
  readonly priceCatalogueOn?: boolean;
  readonly dislikes?: readonly string[];
  readonly libraryRecipesOn?: boolean;
  readonly leftoversKeepDays?: number;
}

/** Every read and write that touches a household's data is scoped by its id. */
export interface HouseholdStore {
  /** Creates the household and its first member in one transaction. */
  create(household: NewHousehold, firstMember: NewMember): Promise<HouseholdWithMembers>;
  byId(householdId: HouseholdId): Promise<HouseholdWithMembers | null>;
  /** The member row of this account in this household, or null (also when the household does not exist). */
  memberByAccount(householdId: HouseholdId, accountId: AccountId): Promise<Member | null>;
  memberById(householdId: HouseholdId, memberId: MemberId): Promise<Member | null>;
  /** Changes a member's name, role or age group; null when the household has no such member. */
  updateMember(householdId: HouseholdId, memberId: MemberId, changes: { displayName?: string; role?: HouseholdRole; ageGroup?: AgeGroup }): Promise<Member | null>;
  /**
   * Links a named person to an account, only while the person has none; answers the member, or null when the
   * person is gone or already claimed.
   */
  claimMember(householdId: HouseholdId, memberId: MemberId, accountId: AccountId, role: HouseholdRole): Promise<Member | null>;
  /** Adds a member row (a named person, or an account joining). */
  addMember(householdId: HouseholdId, member: NewMember): Promise<Member>;
  update(householdId: HouseholdId, changes: HouseholdChanges, at: Date): Promise<HouseholdWithMembers | null>;
  /** Removes a household with everything it owns. */
  delete(householdId: HouseholdId): Promise<void>;
  /** Removes one member row of the household; false when there was none. */
  removeMember(householdId: HouseholdId, memberId: MemberId): Promise<boolean>;
  /**
   * Every household with its members, a page at a time in (createdAt, id) order: those after `after` (null: from
   * the first), at most `limit` (the operator's listing; no request of a member reads it).
   */
  page(after: { createdAt: Date; id: HouseholdId } | null, limit: number): Promise<HouseholdWithMembers[]>;
  /** The households an account belongs to, oldest membership first. */
  membershipsOf(accountId: AccountId): Promise<Membership[]>;
}
