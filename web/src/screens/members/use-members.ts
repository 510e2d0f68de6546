import { useEffect, useState } from 'preact/hooks';
import { api, dataOf, type Invite } from '../../api';
import { loadHousehold, loadMe } from '../../state';
import { t } from '../../i18n';
import { useAction } from '../../ui';
import { withUndo } from '../../ui/undo';

export type Role = 'Owner' | 'Adult' | 'Junior';
export type AgeGroup = 'Adult' | 'Child' | 'Baby';

/** The link an invite code opens, to send to the person invited. */
export const inviteLinkOf = (code: string): string => `${window.location.origin}/invite?code=${encodeURIComponent(code)}`;

/**
 * The household's members as the open household holds them (read again on opening: someone may have joined), and
 * the calls that add a person, invite, change a role and remove; each reads the household again after it.
 */
export function useMembers(householdId: string, adult: boolean) {
  const act = useAction();
  // The open invites (unused, unexpired), several at once: who is still to join, and the link each was sent; and
  // those used or expired lately (who joined with which, and which ran out).
  const [all, setAll] = useState<readonly Invite[]>([]);
  const invites = all.filter((i) => i.state === 'open');
  const pastInvites = all.filter((i) => i.state !== 'open');
  const members = { params: { path: { householdId } } };
  const readInvites = async () =>
    setAll(adult ? await dataOf(api.GET('/api/v1/households/{householdId}/invites', { params: { path: { householdId }, query: { state: 'all' } } })) : []);
  const refresh = () => Promise.all([loadHousehold(), loadMe(), readInvites().catch(() => undefined)]);
  useEffect(() => void refresh(), [householdId]);

  /** A member made for a named person, and the link that lets them join as that member (undefined when refused). */
  const invite = (displayName: string, role: 'Adult' | 'Junior', ageGroup: AgeGroup) =>
    act.run(async () => {
      const member = await dataOf(api.POST('/api/v1/households/{householdId}/members', { ...members, body: { displayName, role, ageGroup } }));
      const created = await dataOf(api.POST('/api/v1/households/{householdId}/invites', { ...members, body: { role, memberId: member.id } }));
      await refresh();
      return inviteLinkOf(created.code);
    });
  /** A person who does not sign in (a small child): counted in the portions by age group; true when added. */
  const addPerson = (displayName: string, ageGroup: AgeGroup) =>
    act.run(async () => {
      // Should the person be invited later, the invite's role is theirs then.
      await dataOf(api.POST('/api/v1/households/{householdId}/members', { ...members, body: { displayName, role: ageGroup === 'Adult' ? 'Adult' : 'Junior', ageGroup } }));
      await refresh();
      return true;
    });
  /** Changes a member's role or age group (the age group weighs them in a day's portions). */
  const changeMember = (memberId: string, change: { role: Role } | { ageGroup: AgeGroup }) =>
    act.run(async () => {
      await api.PATCH('/api/v1/households/{householdId}/members/{memberId}', { params: { path: { householdId, memberId } }, body: change });
      await refresh();
    });
  /** Removes a member, with a few seconds to undo (web/src/ui/undo.tsx): sent only when the time is up. */
  const remove = (member: { id: string; displayName: string }) =>
    withUndo(t.value.memberRemoved(member.displayName), [`member:${member.id}`], async () => {
      await dataOf(api.DELETE('/api/v1/households/{householdId}/members/{memberId}', { params: { path: { householdId, memberId: member.id } } }));
      await refresh();
    });
  /** Withdraws an invite: its link stops working; the person stays a member for portions, with no way in. */
  const withdraw = (code: string) =>
    act.run(async () => {
      await dataOf(api.DELETE('/api/v1/households/{householdId}/invites/{code}', { params: { path: { householdId, code } } }));
      await readInvites();
    });
  return { act, invites, pastInvites, invite, addPerson, changeMember, remove, withdraw };
}
