import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, call } from '../api';
import { kroner, monthName } from '../format';
import { language, t } from '../i18n';
import { householdInfo, loadHousehold } from '../state';
import { Field, Page, Problem, useAction } from '../ui';


/** The public dinner-price figures (what a week of dinners costs, per household type and month) and the monthly mail. */
export function DinnerPrices() {
  const m = t.value;
  const [prices, setPrices] = useState<Awaited<ReturnType<typeof readPrices>> | null>(null);
  const act = useAction();
  useEffect(() => void act.run(async () => setPrices(await readPrices())), []);
  const months = [...new Set((prices?.months ?? []).map((r) => r.month))].sort().reverse();
  return (
    <Page title={m.dinnerPrices}>
      <p>{m.dinnerPricesAbout}</p>
      <Problem error={act.error} />
      {prices && months.length === 0 && <p>{m.dinnerPricesNone}</p>}
      {months.map((month) => (
        <section key={month} aria-labelledby={`m-${month}`}>
          <h2 id={`m-${month}`}>{monthName(month)}</h2>
          <table class="prices">
            <caption class="visually-hidden">{m.dinnerPricesOf(monthName(month))}</caption>
            <thead>
              <tr>
                <th scope="col">{m.householdType}</th>
                <th scope="col">{m.medianWeek}</th>
                <th scope="col">{m.cheapToDear}</th>
              </tr>
            </thead>
            <tbody>
              {prices!.months
                .filter((r) => r.month === month)
                .map((r) => (
                  <tr key={r.householdType}>
                    <th scope="row">{m.householdTypeName[r.householdType] ?? r.householdType}</th>
                    <td>{kroner(r.medianWeekPrice)}</td>
                    <td>
                      {kroner(r.p10WeekPrice)}–{kroner(r.p90WeekPrice)}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      ))}
      <section aria-labelledby="subscribe-h">
        <h2 id="subscribe-h">{m.dinnerPricesMail}</h2>
        <EmailSignup name="prices-email" button={m.subscribeMonthly} send={(email) => call(api.POST('/api/v1/data/dinner-prices/subscribe', { body: { email, language: language.value } }))} />
      </section>
    </Page>
  );
}
const readPrices = () => call(api.GET('/api/v1/data/dinner-prices.json'));

/**
 * An address to confirm by mail (the dinner-price mail, the waitlist): the service answers the same whatever it knew,
 * so the form only ever says to look in the inbox. No browser check of the address: the service's refusal is a sentence.
 */
function EmailSignup({ name, button, send }: { name: string; button: string; send: (email: string) => Promise<unknown> }) {
  const m = t.value;
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const act = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      await send(email.trim());
      setSent(true);
    });
  };
  if (sent) return <p role="status">{m.checkMailToConfirm}</p>;
  return (
    <form onSubmit={submit} class="stack" noValidate>
      <Field label={m.email} name={name} type="email" autoComplete="email" required maxLength={254} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      <Problem error={act.error} />
      <button type="submit" disabled={act.busy}>
        {button}
      </button>
    </form>
  );
}

/** The waitlist: leave an address and hear when there is room. */
export function Waitlist() {
  const m = t.value;
  return (
    <Page title={m.waitlist}>
      <p>{m.waitlistAbout}</p>
      <EmailSignup name="waitlist-email" button={m.joinWaitlist} send={(email) => call(api.POST('/api/v1/waitlist', { body: { email, language: language.value } }))} />
      <p>
        <a href="/register">{m.haveInvite}</a>
      </p>
    </Page>
  );
}

/** Feedback to the people who run the service, with a screenshot if the person wants to show something. */
export function Feedback({ householdId }: { householdId: string | null }) {
  const m = t.value;
  const [message, setMessage] = useState('');
  const [picture, setPicture] = useState<File | null>(null);
  const [sent, setSent] = useState(false);
  const act = useAction();
  const send = (e: Event) => {
    e.preventDefault();
    const formElement = e.currentTarget as HTMLFormElement;
    void act.run(async () => {
      if (picture && picture.size > SCREENSHOT_MAX_BYTES) throw new ApiProblem(400, 'value_too_long', ['screenshot']);
      const form = new FormData();
      form.set('report', JSON.stringify({ message: message.trim(), screen: document.referrer ? new URL(document.referrer).pathname.slice(0, 200) : null, build: null, householdId, failedCalls: [] }));
      if (picture) form.set('screenshot', picture);
      await call(api.POST('/api/v1/feedback', { body: form as never, bodySerializer: (b: unknown) => b as FormData }));
      setMessage('');
      setPicture(null);
      // The file box is the browser's own: emptied with the form.
      formElement.reset();
      setSent(true);
    });
  };
  return (
    <Page title={m.feedback}>
      <p>{m.feedbackAbout}</p>
      {sent && <p role="status">{m.feedbackThanks}</p>}
      <form onSubmit={send} class="stack">
        <label for="f-feedback">{m.feedbackMessage}</label>
        <textarea id="f-feedback" required maxLength={4000} rows={6} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
        <label for="f-screenshot">{m.feedbackPicture}</label>
        <input id="f-screenshot" type="file" accept="image/png,image/jpeg,image/webp" onChange={(e) => setPicture(e.currentTarget.files?.[0] ?? null)} />
        <Problem error={act.error} />
        <button type="submit" disabled={act.busy}>
          {m.sendFeedback}
        </button>
      </form>
    </Page>
  );
}
/** The service's limit on a screenshot (5 MiB), said before the upload instead of after it. */
const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;

/** The household's plan (Free or Plus) and, on Plus, its referral codes to hand to friends. */
export function PlanAndReferrals({ householdId }: { householdId: string }) {
  const m = t.value;
  const plan = householdInfo.value?.plan;
  const [codes, setCodes] = useState<{ code: string; usedAt: string | null }[]>([]);
  const act = useAction();
  useEffect(() => {
    if (plan === 'Plus') void act.run(async () => setCodes(await call(api.GET('/api/v1/households/{householdId}/referral-codes', { params: { path: { householdId } } }))));
  }, [householdId, plan]);
  if (!plan) return null;
  return (
    <section aria-labelledby="plan-h">
      <h2 id="plan-h">{m.plan}</h2>
      <p>{plan === 'Plus' ? m.planPlus : m.planFree}</p>
      {plan === 'Plus' && codes.length > 0 && (
        <>
          <p class="muted">{m.referralAbout}</p>
          <ul class="items">
            {codes.map((c) => (
              <li key={c.code} class="pantry-row">
                <code>{c.code}</code>
                <span class="muted">{c.usedAt ? m.referralUsed : m.referralFree}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <Problem error={act.error} />
    </section>
  );
}

/** The store chains the household shops at, from the loyalty programmes of its country; they set which prices count. */
export function Chains({ householdId, adult }: { householdId: string; adult: boolean }) {
  const m = t.value;
  const [all, setAll] = useState<string[] | null>(null);
  // The chains as just picked, shown at once while the household is saved and read again.
  const [picked, setPicked] = useState<string[] | null>(null);
  const mine = picked ?? householdInfo.value?.chains ?? [];
  const act = useAction();
  useEffect(
    () =>
      void act.run(async () => {
        try {
          const programs = await call(api.GET('/api/v1/households/{householdId}/loyalty-programs', { params: { path: { householdId } } }));
          setAll([...new Set(programs.flatMap((p) => p.chains))].sort((a, b) => a.localeCompare(b)));
        } catch (err) {
          // No programmes known for the household's country: the chains are simply not offered.
          if (err instanceof ApiProblem && err.code === 'loyalty_programs_unavailable') return setAll([]);
          throw err;
        }
      }),
    [householdId],
  );
  const flip = (chain: string, on: boolean) =>
    act.run(async () => {
      const chains = on ? [...mine, chain] : mine.filter((c) => c !== chain);
      setPicked(chains);
      try {
        await call(api.PATCH('/api/v1/households/{householdId}', { params: { path: { householdId } }, body: { chains } }));
        await loadHousehold();
      } finally {
        setPicked(null);
      }
    });
  if (!all || all.length === 0) return act.error ? <Problem error={act.error} /> : null;
  return (
    <section aria-labelledby="chains-h">
      <h2 id="chains-h">{m.chains}</h2>
      <p class="muted">{m.chainsAbout}</p>
      <fieldset>
        <legend class="visually-hidden">{m.chains}</legend>
        {all.map((c) => (
          <label key={c} class="check">
            <input type="checkbox" checked={mine.includes(c)} disabled={!adult || act.busy} onChange={(e) => void flip(c, e.currentTarget.checked)} /> {c}
          </label>
        ))}
      </fieldset>
      <Problem error={act.error} />
    </section>
  );
}
