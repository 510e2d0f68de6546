import { addDays, dateIn, isIsoDate } from '../kernel/dates.js';
import type { HouseholdId } from '../kernel/ids.js';
import type { Household, Member } from '../households/types.js';
import type { IdGenerator } from '../../ports/ids.js';
import { JUNIOR_WINDOW_DAYS, type IsoDate, type MealEvent, type MealEventInput, type MealEventParticipant, type MealEventType } from './types.js';

/** "Today" is the household's: its time zone decides when a day begins. */
export const todayOf = (household: Household, now: Date): IsoDate => dateIn(household.timeZoneId, now);

/**
 * What a Junior may write: her own presence or absence, nothing more, from today through today + 14 days in the
 * household's time zone. The same test decides what she may remove.
 */
export function juniorMayWrite(self: Member, input: MealEventInput, today: IsoDate): boolean {
  const [only, ...more] = input.memberAttendance;
  return (
    (input.eventType === 'PersonAbsent' || input.eventType === 'PersonPresent') &&
    input.servingTime === null &&
    input.availableCookingMinutes === null &&
    input.notes === null &&
    input.guests.length === 0 &&
    only !== undefined &&
    more.length === 0 &&
    only.householdMemberId === self.id &&
    input.date >= today &&
    input.date <= addDays(today, JUNIOR_WINDOW_DAYS)
  );
}

/** A stored event read back as what a writer would have sent. */
export function inputOf(e: MealEvent): MealEventInput {
  return {
    date: e.date,
    eventType: e.eventType,
    servingTime: e.servingTime,
    availableCookingMinutes: e.availableCookingMinutes,
    notes: e.notes,
    memberAttendance: e.participants
      .filter((p) => p.householdMemberId !== null)
      .map((p) => ({ householdMemberId: p.householdMemberId!, isPresent: p.isPresent, dietaryNotes: p.dietaryNotes })),
    guests: e.participants
      .filter((p) => p.householdMemberId === null)
      .map((p) => ({ guestType: p.guestType ?? 'Adult', guestCount: p.guestCount, dietaryNotes: p.dietaryNotes, avoids: p.avoids })),
  };
}

/** Why the input cannot be written for this household, or null when it can. */
export function invalidInput(members: readonly Member[], input: MealEventInput): string | null {
  if (!isIsoDate(input.date)) return `date ${input.date} is not a calendar date`;
  const known = new Set(members.map((m) => m.id));
  const seen = new Set<string>();
  for (const a of input.memberAttendance) {
    if (!known.has(a.householdMemberId)) return `householdMemberId ${a.householdMemberId} is not a member of this household`;
    if (seen.has(a.householdMemberId)) return `householdMemberId ${a.householdMemberId} is named twice`;
    seen.add(a.householdMemberId);
  }
  return null;
}

/**
 * The event as stored: member rows first (in the order sent), then guest groups. Avoids are kept trimmed, in
 * the household's own words.
 */
export function eventFrom(
  ids: IdGenerator,
  householdId: HouseholdId,
  input: MealEventInput,
  stamp: { id: string; createdAt: Date; updatedAt: Date },
): MealEvent {
  const participants: MealEventParticipant[] = [
    ...input.memberAttendance.map((a) => ({
      id: ids.newId(),
      householdMemberId: a.householdMemberId,
      isPresent: a.isPresent,
      guestType: null,
      guestCount: 0,
      dietaryNotes: a.dietaryNotes,
      avoids: [],
    })),
    ...input.guests.map((g) => ({
      id: ids.newId(),
      householdMemberId: null,
      isPresent: true,
      guestType: g.guestType,
      guestCount: g.guestCount,
      dietaryNotes: g.dietaryNotes,
      avoids: g.avoids.map((w) => w.trim()),
    })),
  ];
  return {
    id: stamp.id,
    householdId,
    date: input.date,
    eventType: input.eventType,
    servingTime: input.servingTime,
    availableCookingMinutes: input.availableCookingMinutes,
    notes: input.notes,
    participants,
    createdAt: stamp.createdAt,
    updatedAt: stamp.updatedAt,
  };
}

/** Everything that makes two days' events "the same" for a run: kind, serving time, cooking minutes, notes, party. */
export function shapeOf(e: MealEvent): string {
  const party = e.participants
    .map((p) => JSON.stringify([p.householdMemberId, p.isPresent, p.guestType, p.guestCount, p.dietaryNotes, p.avoids]))
    .sort();
  return JSON.stringify([e.eventType, e.servingTime, e.availableCookingMinutes, e.notes, party]);
}

export interface Run {
  readonly eventType: MealEventType;
  readonly first: IsoDate;
  readonly last: IsoDate;
  readonly events: readonly MealEvent[];
}

/**
 * The maximal runs among `events`: sequences of consecutive days holding events of the same shape.
 * Two equal events on one day belong to the same run.
 */
export function runsOf(events: readonly MealEvent[]): Run[] {
  const byShape = new Map<string, MealEvent[]>();
  for (const e of events) {
    const key = shapeOf(e);
    byShape.set(key, [...(byShape.get(key) ?? []), e]);
  }
  const runs: Run[] = [];
  for (const group of byShape.values()) {
    const sorted = [...group].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    let current: MealEvent[] = [];
    for (const e of sorted) {
      const last = current[current.length - 1];
      if (last && e.date !== last.date && e.date !== addDays(last.date, 1)) {
        runs.push(runOf(current));
        current = [];
      }
      current.push(e);
    }
    if (current.length > 0) runs.push(runOf(current));
  }
  return runs.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
}

const runOf = (events: MealEvent[]): Run => ({ eventType: events[0]!.eventType, first: events[0]!.date, last: events[events.length - 1]!.date, events });
