import { useEffect } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { loadHousehold, loadMe } from '../../state';
import { t } from '../../i18n';
import { useAction } from '../../ui';
import { withUndo } from '../../ui/undo';

export type Role = 'Owner' | 'Adult' | 'Junior';

/**
 * The household's members as the open household holds them (read again on opening: someone may have joined), and
 * the calls that invite, change a role and remove; each reads the household again after it.
 */
export function useMembers(householdId: string) {
  const act = useAction();
  const refresh = () => Promise.all([loadHousehold(), loadMe()]);
  useEffect(() => void refresh(), [householdId]);
  const members = { params: { path: { householdId } } };

  /** A member made for a named person, and the link that lets them join as that member (undefined when refused). */
  const invite = (displayName: string, role: 'Adult' | 'Junior') =>
    act.run(async () => {
      const member = await dataOf(api.POST('/api/v1/households/{householdId}/members', { ...members, body: { displayName, role } }));
      const created = await dataOf(api.POST('/api/v1/households/{householdId}/invites', { ...members, body: { role, memberId: member.id } }));
      await refresh();
      return `${window.location.origin}/invite?code=${encodeURIComponent(created.code)}`;
    });
  const setRole = (memberId: string, role: Role) =>
    act.run(async () => {
      await api.PATCH('/api/v1/households/{householdId}/members/{memberId}', { params: { path: { householdId, memberId } }, body: { role } });
      await refresh();
    });
  /** Removes a member, with a few seconds to undo (web/src/ui/undo.tsx): sent only when the time is up. */
  const remove = (member: { id: string; displayName: string }) =>
    withUndo(t.value.memberRemoved(member.displayName), [`member:${member.id}`], async () => {
      await dataOf(api.DELETE('/api/v1/households/{householdId}/members/{memberId}', { params: { path: { householdId, memberId: member.id } } }));
      await refresh();
    });
  return { act, invite, setRole, remove };
}
