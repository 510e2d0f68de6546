import { useState } from 'preact/hooks';
import { ApiProblem, api, dataOf } from '../../api';
import { t } from '../../i18n';
import { householdInfo, loadMe, me, pickHousehold } from '../../state';
import { Field, Page, Problem, useAction } from '../../ui';
import { hiddenByUndo } from '../../ui/undo';
import { useMembers, type Role } from './use-members';

/** Members with their roles; adults invite a named person (a link to send), change roles and remove members. */
export function Members({ householdId, role }: { householdId: string; role: Role }) {
  const m = t.value;
  const household = householdInfo.value;
  const { act, invite, setRole, remove } = useMembers(householdId);
  const adult = role !== 'Junior';
  return (
    <Page title={m.members}>
      <Problem error={act.error} />
      {household === null ? (
        <p>{m.loading}</p>
      ) : (
        <ul class="cards">
          {household.members.filter((x) => !hiddenByUndo.value.has(`member:${x.id}`)).map((x) => (
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
                    <button type="button" class="link" onClick={() => remove(x)}>
                      {m.removeMember(x.displayName)}
                    </button>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {adult && <InviteForm busy={act.busy} invite={invite} />}
    </Page>
  );
}

/** "Invite": a named person and their role; the link to send them is shown, to copy. */
function InviteForm({ busy, invite }: { busy: boolean; invite: (name: string, role: 'Adult' | 'Junior') => Promise<string | undefined> }) {
  const m = t.value;
  const [name, setName] = useState('');
  const [inviteRole, setInviteRole] = useState<'Adult' | 'Junior'>('Adult');
  const [link, setLink] = useState<{ name: string; url: string } | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    void invite(name, inviteRole).then((url) => {
      if (url === undefined) return;
      setLink({ name, url });
      setName('');
    });
  };
  return (
    <>
      <h2>{m.invite}</h2>
      <form onSubmit={submit} class="stack">
        <Field label={m.inviteName} name="inviteName" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <div class="field">
          <label for="f-invite-role">{m.roleLabel}</label>
          <select id="f-invite-role" value={inviteRole} onChange={(e) => setInviteRole(e.currentTarget.value as 'Adult' | 'Junior')}>
            <option value="Adult">{m.role['Adult']}</option>
            <option value="Junior">{m.role['Junior']}</option>
          </select>
        </div>
        <button type="submit" disabled={busy}>
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
