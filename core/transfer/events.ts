import type { MealEvent } from '../events/types.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { invalid, renamer, type Into, type Invalid, type Renamer } from './checks.js';
import type { HouseholdDocument } from './document.js';

/** The meal events: each row a member of the document or a guest group, never both. */
export function checkEvents(doc: HouseholdDocument['mealEvents'], memberIds: Renamer, into: Into): Result<readonly MealEvent[], Invalid> {
  const eventIds = renamer(into.ids);
  const participantIds = renamer(into.ids);
  for (const [i, e] of doc.entries()) {
    if (!eventIds.add(e.id)) return fail(invalid(`mealEvents.${i}.id`, 'this id is given twice'));
    for (const [j, p] of e.participants.entries()) {
      if (!participantIds.add(p.id)) return fail(invalid(`mealEvents.${i}.participants.${j}.id`, 'this id is given twice'));
      if (p.householdMemberId !== null && !memberIds.has(p.householdMemberId)) {
        return fail(invalid(`mealEvents.${i}.participants.${j}.householdMemberId`, 'names no member of the document'));
      }
      if ((p.householdMemberId === null) === (p.guestType === null)) {
        return fail(invalid(`mealEvents.${i}.participants.${j}`, 'a row is a member (householdMemberId) or a guest group (guestType), not both'));
      }
    }
  }
  return ok(
    doc.map((e) => ({
      ...e,
      id: eventIds.get(e.id),
      householdId: into.householdId,
      participants: e.participants.map((p) => ({
        ...p,
        id: participantIds.get(p.id),
        householdMemberId: p.householdMemberId === null ? null : memberIds.get(p.householdMemberId),
      })),
    })),
  );
}
