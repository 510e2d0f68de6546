import { useState } from 'preact/hooks';
import { ApiProblem, api, dataOf, type Invite } from '../../api';
import { dayAndMonth } from '../../format';
import { t } from '../../i18n';
import { householdInfo, loadMe, me, pickHousehold } from '../../state';
import { Field, Page, Problem, useAction } from '../../ui';
import { hiddenByUndo } from '../../ui/undo';
import { inviteLinkOf, useMembers, type Role } from './use-members';

/** Members with their roles; adults invite a named person (a link to send), change roles and remove members. */
export function Members({ householdId, role }: { householdId: string; role: Role }) {
  const m = t.value;
  const household = householdInfo.value;
  const adult = role !== 'Junior';
  const { act, invites, invite, setRole, remove, withdraw } = useMembers(householdId, adult);
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
                {adult && x.userId === null && <MemberState invites={invites.filter((i) => i.memberId === x.id)} />}
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
      {adult && invites.length > 0 && <OpenInvites invites={invites} names={new Map((household?.members ?? []).map((x) => [x.id, x.displayName]))} busy={act.busy} onWithdraw={(code) => void withdraw(code)} />}
      {adult && <InviteForm busy={act.busy} invite={invite} />}
    </Page>
  );
}

/** Where a member who has not signed in stands: waiting to join (until when), or with no open invite. */
function MemberState({ invites }: { invites: readonly Invite[] }) {
  const m = t.value;
  const open = invites[0];
  return <span class="reason">{open ? m.inviteWaiting(dayAndMonth(open.expiresAt.slice(0, 10))) : m.noOpenInvite}</span>;
}

/**
 * Every open invite, several at once (a new one never replaces another): for whom, its link to copy or share (where
 * the browser can share), and a way to withdraw it.
 */
function OpenInvites({ invites, names, busy, onWithdraw }: { invites: readonly Invite[]; names: ReadonlyMap<string, string>; busy: boolean; onWithdraw: (code: string) => void }) {
  const m = t.value;
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  return (
    <section aria-labelledby="open-invites-h">
      <h2 id="open-invites-h">{m.openInvites(invites.length)}</h2>
      <ul class="cards">
        {invites.map((i) => {
          const who = (i.memberId && names.get(i.memberId)) || m.anyone;
          const url = inviteLinkOf(i.code);
          return (
            <li key={i.code} class="stack">
              <p class="invite-for">
                <strong>{who}</strong> <span class="muted">{m.role[i.role]} · {m.inviteWaiting(dayAndMonth(i.expiresAt.slice(0, 10)))}</span>
              </p>
              <code class="link-text">{url}</code>
              <div class="row">
                <button type="button" class="secondary" onClick={() => void navigator.clipboard?.writeText(url)} aria-label={m.copyLinkFor(who)}>
                  {m.copy}
                </button>
                {canShare && (
                  <button type="button" class="secondary" onClick={() => void navigator.share({ title: m.appName, text: m.inviteLink(who), url }).catch(() => undefined)} aria-label={m.shareLinkFor(who)}>
                    {m.share}
                  </button>
                )}
                <button type="button" class="link" disabled={busy} onClick={() => onWithdraw(i.code)} aria-label={m.withdrawInviteFor(who)}>
                  {m.withdrawInvite}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
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
