import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf, type Invite, type InvitePreview } from '../../api';
import { dayAndMonth } from '../../format';
import { t } from '../../i18n';
import { householdInfo, loadMe, me, pickHousehold } from '../../state';
import { ChoiceRow, Field, Page, Problem, useAction } from '../../ui';
import { hiddenByUndo } from '../../ui/undo';
import { inviteLinkOf, useMembers, type AgeGroup, type Role } from './use-members';

/**
 * Members with their roles (and age group when not adult); adults add a person who does not sign in, invite a named
 * person (a link to send), see the invites open and those used or expired lately, change roles and remove members.
 */
export function Members({ householdId, role }: { householdId: string; role: Role }) {
  const m = t.value;
  const household = householdInfo.value;
  const adult = role !== 'Junior';
  const { act, invites, pastInvites, invite, addPerson, changeMember, remove, withdraw } = useMembers(householdId, adult);
  const names = new Map((household?.members ?? []).map((x) => [x.id, x.displayName]));
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
                <strong>{x.displayName}</strong> {!adult && <span class="muted">{m.role[x.role]}</span>}{' '}
                {x.ageGroup !== 'Adult' && <span class="muted">{m.ageGroup[x.ageGroup]}</span>}
                {adult && x.userId === null && <MemberState invites={invites.filter((i) => i.memberId === x.id)} child={x.ageGroup !== 'Adult'} />}
              </span>
              {adult && (
                <>
                  <div class="member-choices">
                    <label>
                      <span class="muted">{m.roleLabel}</span>
                      <select aria-label={m.changeRole(x.displayName)} value={x.role} disabled={act.busy} onChange={(e) => void changeMember(x.id, { role: e.currentTarget.value as Role })}>
                        {(['Owner', 'Adult', 'Junior'] as const).map((r) => (
                          <option key={r} value={r}>
                            {m.role[r]}
                          </option>
                        ))}
                      </select>
                    </label>
                    <label>
                      <span class="muted">{m.ageGroupLabel}</span>
                      <select aria-label={m.changeAgeGroup(x.displayName)} value={x.ageGroup} disabled={act.busy} onChange={(e) => void changeMember(x.id, { ageGroup: e.currentTarget.value as AgeGroup })}>
                        <AgeGroupOptions />
                      </select>
                    </label>
                  </div>
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
      {adult && <AddPersonForm busy={act.busy} add={addPerson} />}
      {adult && <InviteForm busy={act.busy} invite={invite} />}
      {adult && invites.length > 0 && <OpenInvites invites={invites} names={names} busy={act.busy} onWithdraw={(code) => void withdraw(code)} />}
      {adult && pastInvites.length > 0 && <PastInvites invites={pastInvites} names={names} />}
    </Page>
  );
}

/**
 * Where a member who has not signed in stands: waiting to join (until when), or with no open invite; a child with
 * none needs no way in, and is counted all the same.
 */
function MemberState({ invites, child }: { invites: readonly Invite[]; child: boolean }) {
  const m = t.value;
  const open = invites[0];
  return <span class="reason">{open ? m.inviteWaiting(dayAndMonth(open.expiresAt.slice(0, 10))) : child ? m.countedWithoutSignIn : m.noOpenInvite}</span>;
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

/** The invites used or expired lately: which was used by whom and when, and which ran out unused. */
function PastInvites({ invites, names }: { invites: readonly Invite[]; names: ReadonlyMap<string, string> }) {
  const m = t.value;
  return (
    <section aria-labelledby="past-invites-h">
      <h2 id="past-invites-h">{m.pastInvites}</h2>
      <ul class="cards">
        {invites.map((i) => {
          const who = (i.memberId && names.get(i.memberId)) || m.anyone;
          // Who used it, unless it is the person it was for (named once, above).
          const by = i.usedByMemberId !== null && i.usedByMemberId !== i.memberId ? (names.get(i.usedByMemberId) ?? null) : null;
          const said = i.state === 'used' && i.usedAt ? m.inviteUsed(by, dayAndMonth(i.usedAt.slice(0, 10))) : m.inviteExpired(dayAndMonth(i.expiresAt.slice(0, 10)));
          return (
            <li key={i.code}>
              <p class="invite-for">
                <strong>{who}</strong> <span class="muted">{m.role[i.role]} · {said}</span>
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const AGE_GROUPS = ['Adult', 'Child', 'Baby'] as const;

/** The age groups as a select's options, in the screen's language. */
function AgeGroupOptions() {
  const m = t.value;
  return (
    <>
      {AGE_GROUPS.map((g) => (
        <option key={g} value={g}>
          {m.ageGroup[g]}
        </option>
      ))}
    </>
  );
}

/** "Add a person": someone who does not sign in (a small child), whose age group says what share of a dinner they eat. */
function AddPersonForm({ busy, add }: { busy: boolean; add: (name: string, ageGroup: AgeGroup) => Promise<boolean | undefined> }) {
  const m = t.value;
  const [name, setName] = useState('');
  const [ageGroup, setAgeGroup] = useState<AgeGroup>('Adult');
  const [added, setAdded] = useState<string | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    void add(name, ageGroup).then((done) => {
      if (!done) return;
      setAdded(name.trim());
      setName('');
    });
  };
  return (
    <section aria-labelledby="add-person-h">
      <h2 id="add-person-h">{m.addPerson}</h2>
      <form onSubmit={submit} class="stack">
        <Field label={m.personName} name="personName" required maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <ChoiceRow id="age-group" name="ageGroup" legend={m.ageGroupLabel} choices={AGE_GROUPS} label={(g) => m.ageGroup[g]} value={ageGroup} onChange={setAgeGroup} hint={m.ageGroupHint} />
        <button type="submit" disabled={busy}>
          {m.add}
        </button>
      </form>
      {added && <p role="status">{m.personAdded(added)}</p>}
    </section>
  );
}

/** "Invite": a named person and their role; the link to send them is shown, to copy. */
function InviteForm({ busy, invite }: { busy: boolean; invite: (name: string, role: 'Adult' | 'Junior', ageGroup: AgeGroup) => Promise<string | undefined> }) {
  const m = t.value;
  const [name, setName] = useState('');
  const [inviteRole, setInviteRole] = useState<'Adult' | 'Junior'>('Adult');
  const [ageGroup, setAgeGroup] = useState<AgeGroup>('Adult');
  const [link, setLink] = useState<{ name: string; url: string } | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    void invite(name, inviteRole, ageGroup).then((url) => {
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
        <div class="field">
          <label for="f-invite-age-group">{m.ageGroupLabel}</label>
          <select id="f-invite-age-group" value={ageGroup} onChange={(e) => setAgeGroup(e.currentTarget.value as AgeGroup)} aria-describedby="invite-age-group-hint">
            <AgeGroupOptions />
          </select>
          <p id="invite-age-group-hint" class="muted">
            {m.ageGroupHint}
          </p>
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

/** What an open invite's link says before anything else: whose household, who invited, for whom and until when. */
function InviteAbout({ about }: { about: InvitePreview }) {
  const m = t.value;
  return (
    <>
      <h2>{m.invitedYou(about.invitedBy, about.householdName)}</h2>
      <p class="muted">
        {about.memberName && `${m.inviteIsFor(about.memberName)} `}
        {m.inviteWorksUntil(dayAndMonth(about.expiresAt.slice(0, 10)))}
      </p>
    </>
  );
}

/** A refusal that says the code will not work (unknown, used, expired, withdrawn): no second try is offered. */
const spentCode = (error: unknown) => error instanceof ApiProblem && (error.code === 'invite_not_open' || error.code === 'invite_not_found' || error.code === 'invite_not_usable');

/**
 * The invite link: it names the household and who invited, to anyone who opens it; a signed-in person joins at
 * once, anyone else signs in or registers first and comes back. A link that no longer works says so.
 */
export function AcceptInvite() {
  const m = t.value;
  const code = new URLSearchParams(window.location.search).get('code') ?? '';
  const [joined, setJoined] = useState<string | null>(null);
  // undefined while the link is being looked up (nothing to act on shown yet), null when that failed.
  const [about, setAbout] = useState<InvitePreview | null | undefined>(undefined);
  const lookup = useAction();
  const act = useAction();
  useEffect(() => {
    void lookup.run(async () => {
      try {
        setAbout(await dataOf(api.GET('/api/v1/invites/{code}', { params: { path: { code: code || '-' } } })));
      } catch (err) {
        setAbout(null);
        throw err;
      }
    });
  }, [code]);
  const join = () =>
    act.run(async () => {
      const r = await dataOf(api.POST('/api/v1/invites/accept', { body: { code } }));
      pickHousehold(r.householdId);
      await loadMe();
      setJoined(r.householdName);
    });
  // A code the service refused will not work on a second try: the buttons go, the sentence says what to do.
  const spent = spentCode(lookup.error) || spentCode(act.error);
  const here = encodeURIComponent(`/invite?code=${encodeURIComponent(code)}`);
  return (
    <Page title={m.acceptInvite}>
      {about && !joined && <InviteAbout about={about} />}
      <Problem error={lookup.error} />
      {joined ? (
        <p role="status">
          {m.joined(joined)} <a href="/">{m.goToApp}</a>
        </p>
      ) : spent || about === undefined ? null : me.value ? (
        <button type="button" disabled={act.busy} onClick={() => void join()}>
          {m.acceptInvite}
        </button>
      ) : (
        <p>
          {m.signInToJoin} <a href={`/sign-in?next=${here}`}>{m.signIn}</a> · <a href={`/register?next=${here}`}>{m.register}</a>
        </p>
      )}
      <Problem error={act.error} />
    </Page>
  );
}
