import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf } from '../../api';
import { t } from '../../i18n';
import { householdInfo, loadHousehold, loadMe, me, pickHousehold } from '../../state';
import { Field, Page, Problem, useAction } from '../../ui';

type Role = 'Owner' | 'Adult' | 'Junior';

/** Members with their roles; adults invite a named person (a link to send), change roles and remove members. */
export function Members({ householdId, role }: { householdId: string; role: Role }) {
  const m = t.value;
  const household = householdInfo.value;
  const [name, setName] = useState('');
  const [inviteRole, setInviteRole] = useState<'Adult' | 'Junior'>('Adult');
  const [link, setLink] = useState<{ name: string; url: string } | null>(null);
  const act = useAction();
  const adult = role !== 'Junior';
  // Someone may have joined since the household was read: read it again on opening.
  const refresh = () => Promise.all([loadHousehold(), loadMe()]);
  useEffect(() => void refresh(), [householdId]);
  const invite = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const member = await dataOf(api.POST('/api/v1/households/{householdId}/members', { params: { path: { householdId } }, body: { displayName: name, role: inviteRole } }));
      const created = await dataOf(api.POST('/api/v1/households/{householdId}/invites', { params: { path: { householdId } }, body: { role: inviteRole, memberId: member.id } }));
      setLink({ name, url: `${window.location.origin}/invite?code=${encodeURIComponent(created.code)}` });
      setName('');
      await refresh();
    });
  };
  const setRole = (memberId: string, next: Role) =>
    act.run(async () => {
      await api.PATCH('/api/v1/households/{householdId}/members/{memberId}', { params: { path: { householdId, memberId } }, body: { role: next } });
      await refresh();
    });
  const remove = (memberId: string) =>
    act.run(async () => {
      await api.DELETE('/api/v1/households/{householdId}/members/{memberId}', { params: { path: { householdId, memberId } } });
      await refresh();
    });
  return (
    <Page title={m.members}>
      <Problem error={act.error} />
      {household === null ? (
        <p>{m.loading}</p>
      ) : (
        <ul class="cards">
          {household.members.map((x) => (
            <li key={x.id} class="row">
              <span style="flex:1">
                <strong>{x.displayName}</strong> {!adult && <span class="muted">{m.role[x.role]}</span>}
              </span>
              {adult && (
                <>
                  <select aria-label={m.changeRole(x.displayName)} value={x.role} disabled={act.busy} onChange={(e) => void setRole(x.id, e.currentTarget.value as Role)}>
                    {(['Owner', 'Adult', 'Junior'] as const).map((r) => (
                      <option key={r} value={r}>
                        {m.role[r]}
                      </option>
                    ))}
                  </select>
                  {x.userId !== me.value?.user.id && (
                    <button type="button" class="link" onClick={() => void remove(x.id)}>
                      {m.removeMember(x.displayName)}
                    </button>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {adult && (
        <>
          <h2>{m.invite}</h2>
          <form onSubmit={invite} class="stack">
            <Field label={m.inviteName} name="inviteName" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            <div class="field">
              <label for="f-invite-role">{m.roleLabel}</label>
              <select id="f-invite-role" value={inviteRole} onChange={(e) => setInviteRole(e.currentTarget.value as 'Adult' | 'Junior')}>
                <option value="Adult">{m.role['Adult']}</option>
                <option value="Junior">{m.role['Junior']}</option>
              </select>
            </div>
            <button type="submit" disabled={act.busy}>
              {m.invite}
            </button>
          </form>
          {link && (
            <div class="ask" role="status">
              <p>{m.inviteLink(link.name)}</p>
              <p>
                <code class="link-text">{link.url}</code>
              </p>
              <button type="button" onClick={() => void navigator.clipboard?.writeText(link.url)}>
                {m.copy}
              </button>
            </div>
          )}
        </>
      )}
    </Page>
  );
}

/** The invite link: a signed-in person joins at once; anyone else signs in or registers first and comes back. */
export function AcceptInvite() {
  const m = t.value;
  const code = new URLSearchParams(window.location.search).get('code') ?? '';
  const [joined, setJoined] = useState<string | null>(null);
  const act = useAction();
  const join = () =>
    act.run(async () => {
      const r = await dataOf(api.POST('/api/v1/invites/accept', { body: { code } }));
      pickHousehold(r.householdId);
      await loadMe();
      setJoined(r.householdName);
    });
  // A code the service refused will not work on a second try: the button goes, the sentence says what to do.
  const spent = act.error instanceof ApiProblem && (act.error.code === 'invite_not_found' || act.error.code === 'invite_not_usable');
  const here = encodeURIComponent(`/invite?code=${encodeURIComponent(code)}`);
  return (
    <Page title={m.acceptInvite}>
      {joined ? (
        <p role="status">
          {m.joined(joined)} <a href="/">{m.goToApp}</a>
        </p>
      ) : me.value ? (
        !spent && (
          <button type="button" disabled={act.busy} onClick={() => void join()}>
            {m.acceptInvite}
          </button>
        )
      ) : (
        <p>
          {m.signInToJoin} <a href={`/sign-in?next=${here}`}>{m.signIn}</a> · <a href={`/register?next=${here}`}>{m.register}</a>
        </p>
      )}
      <Problem error={act.error} />
    </Page>
  );
}
