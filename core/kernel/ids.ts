/** Identifiers are UUID strings; the aliases say which entity an id names. */
export type AccountId = string;
export type HouseholdId = string;
export type MemberId = string;
