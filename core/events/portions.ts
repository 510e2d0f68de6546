import type { GuestType, MealEvent } from './types.js';
import type { Member } from '../households/types.js';
import { avoidsOfDay } from './avoid-gate.js';

/** A guest's share of a dinner: an adult eats a whole portion, a child half of one, a baby none. */
export const GUEST_WEIGHT: Record<GuestType, number> = { Adult: 1, Child: 0.5, Baby: 0 };

/** What members eat of a dinner together, by their age groups (the guests' weights), not yet rounded. */
export const shareOf = (members: readonly Pick<Member, 'ageGroup'>[]): number => members.reduce((n, m) => n + GUEST_WEIGHT[m.ageGroup], 0);

export interface DerivedDay {
  /**
   * Portions for the table: present members and guests, each weighed by age group (Adult 1, Child 0.5, Baby 0),
   * the sum rounded up; 0 when not cooked at home.
   */
  readonly portions: number;
  /** false when an EatingOut or Travel event closes the day: nothing is cooked or bought for it. */
  readonly cookedAtHome: boolean;
  /** Every guest avoid of the day, de-duplicated (case-insensitively): hard constraints for the whole table. */
  readonly avoids: readonly string[];
  readonly eventIds: readonly string[];
}

/**
 * What a day needs, from the household's members and the day's events. Every member eats at home unless an
 * event marks them absent (PersonAbsent, or an absent attendance row of any event); an attendance row marking a
 * member present (PersonPresent) wins over an absence, since it says who is there after all.
 */
export function deriveDay(members: readonly Member[], events: readonly MealEvent[]): DerivedDay {
  const absent = new Set<string>();
  const present = new Set<string>();
  let guests = 0;
  let cookedAtHome = true;
  for (const e of events) {
    if (e.eventType === 'EatingOut' || e.eventType === 'Travel') cookedAtHome = false;
    for (const p of e.participants) {
      if (p.householdMemberId !== null) (p.isPresent ? present : absent).add(p.householdMemberId);
      else if (p.guestType !== null) guests += GUEST_WEIGHT[p.guestType] * p.guestCount;
    }
  }
  const eating = shareOf(members.filter((m) => present.has(m.id) || !absent.has(m.id)));
  return {
    portions: cookedAtHome ? Math.ceil(eating + guests) : 0,
    cookedAtHome,
    avoids: avoidsOfDay(events),
    eventIds: events.map((e) => e.id),
  };
}
