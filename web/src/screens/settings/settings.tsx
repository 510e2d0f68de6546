import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf } from '../../api';
import { t, type Language } from '../../i18n';
import { useLocation } from 'preact-iso';
import { household, householdInfo, loadHousehold, loadMe, me, signOut } from '../../state';
import { CalendarFeeds } from './calendar-feeds';
import { ImportHousehold } from '../../ui/import-household';
import { Chains } from './chains';
import { PlanAndReferrals } from './plan-and-referrals';
import { Notifications } from './notifications';
import { SignInMethods } from './sign-ins';
import { AskFirst, Field, LanguageAndZone, Page, Problem, SettingsForm, useAction } from '../../ui';

/** The person's own settings, and (for adults) the household's: each part saves on its own. */
export function Settings({ householdId }: { householdId: string }) {
  const m = t.value;
  const adult = household.value?.role !== 'Junior';
  return (
    <Page title={m.settings}>
      <Profile />
      <Password />
      <EmailChange />
      <SignInMethods />
      {adult && householdInfo.value && <HouseholdSettings householdId={householdId} />}
      <DinnerCalendar householdId={householdId} adult={adult} />
      <CalendarFeeds householdId={householdId} adult={adult} />
      <Chains householdId={householdId} adult={adult} />
      <PlanAndReferrals householdId={householdId} />
      <Notifications />
      <HouseholdData householdId={householdId} />
      <p>
        <a href="/receipts">{m.receipts}</a> · <a href="/feedback">{m.giveFeedback}</a> · <a href="/dinner-prices">{m.dinnerPrices}</a>
      </p>
      <Leave householdId={householdId} />
    </Page>
  );
}

function Profile() {
  const m = t.value;
  const [name, setName] = useState(me.value?.user.displayName ?? '');
  const save = async () => {
    await api.PATCH('/api/v1/me', { body: { displayName: name } });
    await Promise.all([loadMe(), loadHousehold()]);
  };
  return (
    <SettingsForm id="you" title={m.you} button={m.save} done={m.saved} onSubmit={save}>
      <Field label={m.displayName} name="displayName" autoComplete="name" required maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
    </SettingsForm>
  );
}

function Password() {
  const m = t.value;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const save = async () => {
    await api.POST('/api/v1/me/password', { body: { currentPassword: current || null, newPassword: next } });
    setCurrent('');
    setNext('');
  };
  return (
    <SettingsForm id="password" title={m.changePassword} button={m.changePassword} done={m.passwordSaved} onSubmit={save}>
      <Field label={m.currentPassword} name="currentPassword" type="password" autoComplete="current-password" value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
      <Field label={m.newPassword} name="newPassword" type="password" autoComplete="new-password" required minLength={8} value={next} onInput={(e) => setNext(e.currentTarget.value)} />
    </SettingsForm>
  );
}

function EmailChange() {
  const m = t.value;
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState('');
  const send = async () => {
    await api.POST('/api/v1/me/email', { body: { newEmail: email } });
    setSentTo(email);
  };
  const now = <p class="muted">{m.emailNow(me.value?.user.email ?? '—')}</p>;
  return (
    <SettingsForm id="email" title={m.changeEmail} button={m.sendLink} done={m.emailChangeSent(sentTo)} intro={now} onSubmit={send}>
      <Field label={m.newEmail} name="newEmail" type="email" autoComplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
    </SettingsForm>
  );
}

/** Name, language, time zone, dinner time, what the household would rather not eat, and where suggestions come from (adults). */
function HouseholdSettings({ householdId }: { householdId: string }) {
  const m = t.value;
  const h = householdInfo.value!;
  const [name, setName] = useState(h.name);
  const [lang, setLang] = useState<Language>(h.language);
  const [zone, setZone] = useState(h.timeZoneId);
  const [zones, setZones] = useState<string[]>([h.timeZoneId]);
  const [dinner, setDinner] = useState(h.dinnerTime);
  const [dislikes, setDislikes] = useState(h.dislikes.join(', '));
  const [library, setLibrary] = useState(h.libraryRecipesOn);
  const [sharingOff, setSharingOff] = useState<boolean | null>(null);
  const [prices, setPrices] = useState<boolean | null>(null);
  useEffect(() => {
    void dataOf(api.GET('/api/v1/time-zones')).then((r) => setZones([...r.timeZones].sort()), () => undefined);
    void dataOf(api.GET('/api/v1/households/{householdId}/shopping-settings', { params: { path: { householdId } } })).then(
      (s) => {
        setSharingOff(s.sharingOff);
        setPrices(s.priceCatalogueOn);
      },
      () => undefined,
    );
  }, [householdId]);
  const save = async () => {
    const words = dislikes.split(',').map((w) => w.trim()).filter((w) => w !== '');
    await api.PATCH('/api/v1/households/{householdId}', { params: { path: { householdId } }, body: { name, language: lang, timeZoneId: zone, dinnerTime: dinner, dislikes: words, libraryRecipesOn: library } });
    if (sharingOff !== null && prices !== null) {
      await api.PATCH('/api/v1/households/{householdId}/shopping-settings', { params: { path: { householdId } }, body: { sharingOff, priceCatalogueOn: prices } });
    }
    await Promise.all([loadHousehold(), loadMe()]);
  };
  return (
    <SettingsForm id="household" title={m.householdSettings} button={m.save} done={m.saved} onSubmit={save}>
      <Field label={m.householdName} name="householdName" required maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <LanguageAndZone id="f-h" language={lang} onLanguage={setLang} zone={zone} zones={zones} onZone={setZone} />
      <Field label={m.dinnerTime} name="dinnerTime" type="time" required value={dinner} onInput={(e) => setDinner(e.currentTarget.value)} />
      <Field label={m.dislikes} name="dislikes" maxLength={2000} value={dislikes} onInput={(e) => setDislikes(e.currentTarget.value)} />
      <label class="check">
        <input type="checkbox" checked={library} onChange={(e) => setLibrary(e.currentTarget.checked)} />
        {m.libraryRecipesOn}
      </label>
      {sharingOff !== null && (
        <label class="check">
          <input type="checkbox" checked={!sharingOff} onChange={(e) => setSharingOff(!e.currentTarget.checked)} />
          {m.shareListChanges}
        </label>
      )}
      {prices !== null && (
        <label class="check">
          <input type="checkbox" checked={prices} onChange={(e) => setPrices(e.currentTarget.checked)} />
          {m.usePriceCatalogue}
        </label>
      )}
    </SettingsForm>
  );
}

/** The household as one file to keep or to move (Owners download it), and a new household made from such a file (anyone). */
function HouseholdData({ householdId }: { householdId: string }) {
  const m = t.value;
  const owner = household.value?.role === 'Owner';
  return (
    <section aria-labelledby="data-h">
      <h2 id="data-h">{m.householdData}</h2>
      {owner ? (
        <>
          <p>{m.downloadAbout}</p>
          <p>
            {/* A plain link: the session cookie goes along, the service names the file, and a large one streams to disk. */}
            <a class="button secondary" href={`/api/v1/households/${encodeURIComponent(householdId)}/export`} download>
              {m.downloadHousehold}
            </a>
          </p>
        </>
      ) : (
        <p class="muted">{m.downloadOwnerOnly}</p>
      )}
      <ImportHousehold level="h3" />
    </section>
  );
}

/** Leaving the household, or deleting the account: each asks first. */
function Leave({ householdId }: { householdId: string }) {
  const { route } = useLocation();
  const m = t.value;
  const [asking, setAsking] = useState<'leave' | 'delete' | null>(null);
  const act = useAction();
  const mine = household.value;
  const leave = () =>
    act.run(async () => {
      await api.DELETE('/api/v1/households/{householdId}/members/{memberId}', { params: { path: { householdId, memberId: mine!.memberId! } } });
      await loadMe();
      route('/', true);
    });
  const remove = () =>
    act.run(async () => {
      await api.DELETE('/api/v1/me');
      await signOut();
      route('/sign-in', true);
    });
  const refused = act.error instanceof ApiProblem;
  return (
    <section aria-labelledby="leave-h" class="danger-zone">
      <h2 id="leave-h">{m.leaveOrDelete}</h2>
      {asking === null ? (
        <div class="row">
          {mine?.memberId && (
            <button type="button" class="secondary" onClick={() => setAsking('leave')}>
              {m.leaveHousehold(mine.householdName)}
            </button>
          )}
          <button type="button" class="secondary" onClick={() => setAsking('delete')}>
            {m.deleteAccount}
          </button>
        </div>
      ) : (
        <AskFirst
          id="leave-q"
          question={asking === 'leave' ? m.confirmLeave(mine?.householdName ?? '') : m.confirmDeleteAccount}
          yes={asking === 'leave' ? m.yesLeave : m.yesDeleteAccount}
          danger
          busy={act.busy}
          onYes={() => void (asking === 'leave' ? leave() : remove())}
          onCancel={() => {
            setAsking(null);
            act.setError(null);
          }}
        >
          {refused && <Problem error={act.error} />}
        </AskFirst>
      )}
    </section>
  );
}

/** The household's dinners as a calendar to subscribe to: the link, a new one when it leaked, or none (adults). */
function DinnerCalendar({ householdId, adult }: { householdId: string; adult: boolean }) {
  const m = t.value;
  const [link, setLink] = useState<{ url: string | null; webcalUrl: string | null } | null>(null);
  const [copied, setCopied] = useState(false);
  const act = useAction();
  const path = { params: { path: { householdId } } };
  useEffect(() => void act.run(async () => setLink(await dataOf(api.GET('/api/v1/households/{householdId}/dinner-calendar', path)))), [householdId]);
  const change = (what: 'reset' | 'off') =>
    act.run(async () => {
      setCopied(false);
      if (what === 'reset') setLink(await dataOf(api.POST('/api/v1/households/{householdId}/dinner-calendar/reset', path)));
      else {
        await api.DELETE('/api/v1/households/{householdId}/dinner-calendar', path);
        setLink({ url: null, webcalUrl: null });
      }
    });
  return (
    <section aria-labelledby="calendar-h">
      <h2 id="calendar-h">{m.dinnerCalendar}</h2>
      <p class="muted">{m.dinnerCalendarAbout}</p>
      {link?.url ? (
        <>
          <p>
            <code class="link-text">{link.url}</code>
          </p>
          <div class="row">
            <button
              type="button"
              onClick={() => void navigator.clipboard?.writeText(link.url!).then(() => setCopied(true), () => setCopied(false))}
            >
              {m.copy}
            </button>
            {link.webcalUrl && (
              <a class="button secondary" href={link.webcalUrl}>
                {m.subscribe}
              </a>
            )}
            {adult && (
              <>
                <button type="button" class="secondary" disabled={act.busy} onClick={() => void change('reset')}>
                  {m.newLink}
                </button>
                <button type="button" class="link" disabled={act.busy} onClick={() => void change('off')}>
                  {m.turnOff}
                </button>
              </>
            )}
          </div>
          {copied && <p role="status">{m.copied}</p>}
        </>
      ) : (
        link && (
          <p>
            {m.calendarOff}{' '}
            {adult && (
              <button type="button" class="secondary" disabled={act.busy} onClick={() => void change('reset')}>
                {m.turnOn}
              </button>
            )}
          </p>
        )
      )}
      <Problem error={act.error} />
    </section>
  );
}
