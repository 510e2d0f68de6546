import type { HouseholdId, MemberId } from '../kernel/ids.js';

export const MEAL_EVENT_TYPES = ['Guests', 'EatingOut', 'PersonAbsent', 'PersonPresent', 'Activity', 'Celebration', 'Travel', 'Custom'] as const;
export type MealEventType = (typeof MEAL_EVENT_TYPES)[number];
export const GUEST_TYPES = ['Adult', 'Child', 'Baby'] as const;
export type GuestType = (typeof GUEST_TYPES)[number];

/** A dinner-time date, `YYYY-MM-DD`, in the household's time zone. */
export type IsoDate = string;

/** One participant row: a household member's attendance, or a group of guests. */
export interface MealEventParticipant {
  readonly id: string;
  /** Set for a member's attendance row; null for a guest group. */
  readonly householdMemberId: MemberId | null;
  readonly isPresent: boolean;
  /** Set for a guest group; null for a member row. */
  readonly guestType: GuestType | null;
  /** Guests in the group; 0 for a member row. */
  readonly guestCount: number;
  readonly dietaryNotes: string | null;
  /** Foods to avoid, in the household's own words: hard constraints for the whole table that day. */
  readonly avoids: readonly string[];
}

export interface MealEvent {
  readonly id: string;
  readonly householdId: HouseholdId;
  readonly date: IsoDate;
  readonly eventType: MealEventType;
  /** "HH:MM" or null. */
  readonly servingTime: string | null;
  readonly availableCookingMinutes: number | null;
  readonly notes: string | null;
  readonly participants: readonly MealEventParticipant[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A guest group as a writer sends it. */
export interface GuestGroupInput {
  readonly guestType: GuestType;
  readonly guestCount: number;
  readonly dietaryNotes: string | null;
  readonly avoids: readonly string[];
}

/** A member's attendance as a writer sends it. */
export interface MemberAttendanceInput {
  readonly householdMemberId: MemberId;
  readonly isPresent: boolean;
  readonly dietaryNotes: string | null;
}

/** Everything a writer says about one event but its date (a run repeats it over days). */
export interface MealEventFields {
  readonly eventType: MealEventType;
  readonly servingTime: string | null;
  readonly availableCookingMinutes: number | null;
  readonly notes: string | null;
  readonly guests: readonly GuestGroupInput[];
  readonly memberAttendance: readonly MemberAttendanceInput[];
}

export interface MealEventInput extends MealEventFields {
  readonly date: IsoDate;
}

/** Limits of meal events: avoids per event and their length, the days of a run, a Junior's window, and page sizes. */
export const AVOIDS_MAX = 20;
export const AVOID_MAX_LENGTH = 200;
export const RUN_MAX_DAYS = 31;
export const JUNIOR_WINDOW_DAYS = 14;
export const EVENTS_PAGE_MAX = 100;
export const EVENTS_PAGE_DEFAULT = 50;
