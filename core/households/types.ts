import type { AccountId, HouseholdId, MemberId } from '../kernel/ids.js';

export const ROLES = ['Owner', 'Adult', 'Junior'] as const;
export type HouseholdRole = (typeof ROLES)[number];
export const LANGUAGES = ['nb', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const PLANS = ['Free', 'Plus'] as const;
export type Plan = (typeof PLANS)[number];
/** Who eats how much: the same words and weights as guests' guestType (core/events/portions.ts). */
export const AGE_GROUPS = ['Adult', 'Child', 'Baby'] as const;
export type AgeGroup = (typeof AGE_GROUPS)[number];

export const HOUSEHOLD_NAME_MAX = 80;
export const DEFAULT_TIME_ZONE = 'Europe/Oslo';
export const DEFAULT_DINNER_TIME = '18:00';
export const DEFAULT_LANGUAGE: Language = 'nb';

/** Bounds of a household's dislikes, as of a guest group's avoids. */
export const DISLIKES_MAX = 20;
export const DISLIKE_MAX_LENGTH = 200;
export const DEFAULT_COUNTRY = 'NO';

export interface Member {
  readonly id: MemberId;
  readonly householdId: HouseholdId;
  readonly displayName: string;
  readonly role: HouseholdRole;
  /** What the member eats of a dinner's portions: an Adult one, a Child half of one, a Baby none. */
  readonly ageGroup: AgeGroup;
  /** null for a named person who has no account (yet). */
  readonly accountId: AccountId | null;
  readonly createdAt: Date;
}

/** For how many days a household's leftovers keep (a setting, 1 to 7): the default for every household. */
export const LEFTOVERS_KEEP_DAYS_DEFAULT = 3;
export const LEFTOVERS_KEEP_DAYS_MAX = 7;

export interface Household {
  readonly id: HouseholdId;
  readonly name: string;
  readonly timeZoneId: string;
  readonly language: Language;
  readonly country: string;
  /** "HH:MM" in the household's time zone. */
  readonly dinnerTime: string;
  readonly chains: readonly string[];
  readonly plan: Plan;
  /** Shopping settings: no list pushes (item added, items ticked) to the other members. */
  readonly sharingOff: boolean;
  /** Shopping settings: lists carry suggested prices and better choices (off: none). */
  readonly priceCatalogueOn: boolean;
  /** Foods the household has said it would rather not eat, in its own words: soft, unlike guests' avoids. */
  readonly dislikes: readonly string[];
  /** Planner settings: suggestions may draw on the shared recipe library as well as the household's recipes. */
  readonly libraryRecipesOn: boolean;
  /** Planner settings: for how many days after the cooking day its leftovers may be eaten (1 to 7; core/plans/leftovers.ts). */
  readonly leftoversKeepDays: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface HouseholdWithMembers extends Household {
  readonly members: readonly Member[];
}

/** One of an account's households, as MeResponse lists it. */
export interface Membership {
  readonly householdId: HouseholdId;
  readonly householdName: string;
  readonly role: HouseholdRole;
  readonly memberId: MemberId;
}

export const isAdult = (role: HouseholdRole): boolean => role === 'Owner' || role === 'Adult';

/** What a personal access token may do in its household: read (GET) only, or read and write. */
export const ACCESS_TOKEN_SCOPES = ['read', 'read-write'] as const;
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number];

/**
 * A person's personal access token: it acts as the person in one household they are a member of, for a script, a
 * home automation or an assistant. Only the SHA-256 of its secret is kept.
 */
export interface AccessToken {
  readonly id: string;
  readonly accountId: AccountId;
  readonly householdId: HouseholdId;
  readonly name: string;
  readonly scope: AccessTokenScope;
  /** SHA-256 of the secret, hex; the secret itself is shown once, when the token is made. */
  readonly tokenHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** Last time a request came with it, at most a minute behind; null until it is first used. */
  readonly lastUsedAt: Date | null;
}

/** A token as its person's list shows it: with its household's name, and whether its person is still a member there. */
export interface ListedAccessToken extends Omit<AccessToken, 'tokenHash'> {
  readonly householdName: string;
  readonly member: boolean;
}
