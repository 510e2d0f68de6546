import type { Account } from '../accounts/types.js';
import type { Member } from '../households/types.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { invalid, renamer, type Into, type Invalid, type Renamer } from './checks.js';
import type { HouseholdDocument } from './document.js';

export interface MembersIn {
  readonly members: readonly Member[];
  readonly memberIds: Renamer;
}

/**
 * The members: the caller takes the place of the member who exported the document (as Owner, under that member's
 * name), or joins as a member of its own when the document names none; the rest are named people.
 */
export function checkMembers(doc: Pick<HouseholdDocument, 'members' | 'exportedBy'>, caller: Account, into: Into, now: Date): Result<MembersIn, Invalid> {
  const { householdId } = into;
  const memberIds = renamer(into.ids);
  for (const [i, m] of doc.members.entries()) if (!memberIds.add(m.id)) return fail(invalid(`members.${i}.id`, 'this id is given twice'));
  const exporter = doc.exportedBy === null ? undefined : doc.members.find((m) => m.id === doc.exportedBy);
  if (doc.exportedBy !== null && !exporter) return fail(invalid('exportedBy', 'names no member of the document'));
  const you: Member = exporter
    ? { id: memberIds.get(exporter.id), householdId, displayName: exporter.displayName, role: 'Owner', ageGroup: exporter.ageGroup, accountId: caller.id, createdAt: exporter.createdAt }
    : { id: into.ids.newId(), householdId, displayName: caller.displayName, role: 'Owner', ageGroup: 'Adult', accountId: caller.id, createdAt: now };
  const members: Member[] = [
    you,
    ...doc.members
      .filter((m) => m !== exporter)
      // Only an account holds the Owner role: a named Owner arrives as an Adult.
      .map((m) => ({ id: memberIds.get(m.id), householdId, displayName: m.displayName, role: m.role === 'Owner' ? 'Adult' : m.role, ageGroup: m.ageGroup, accountId: null, createdAt: m.createdAt })),
  ];
  return ok({ members, memberIds });
}
