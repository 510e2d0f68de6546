import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { t } from '../../i18n';
import { useLocation } from 'preact-iso';
import { loadMe, signInEnded } from '../../state';
import { ActionForm, Field, Page, useAction } from '../../ui';

/** Where to go after signing in: the `next` of the address when it is one of this app's paths. */
const nextPath = () => {
  const next = new URLSearchParams(window.location.search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
};

export function SignIn() {
  const { route } = useLocation();
  const m = t.value;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const act = useAction();
  const signIn = async () => {
    await api.POST('/api/v1/auth/login', { body: { email, password } });
    signInEnded.value = false;
    await loadMe();
    route(nextPath(), true);
  };
  return (
    <Page title={m.signIn}>
      {signInEnded.value && <p role="status">{m.signInEnded}</p>}
      <ActionForm action={act} button={m.signIn} onSubmit={signIn}>
        <Field label={m.email} name="email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label={m.password} name="password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </ActionForm>
      <p>
        <a href="/forgot-password">{m.forgotPassword}</a>
      </p>
      <Providers />
      <p>
        {m.noAccount} <a href="/register">{m.register}</a>
      </p>
      <p class="muted">
        <a href="/waitlist">{m.waitlist}</a> · <a href="/dinner-prices">{m.dinnerPrices}</a>
      </p>
    </Page>
  );
}

export function Register() {
  const { route } = useLocation();
  const m = t.value;
  const [displayName, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const act = useAction();
  const register = async () => {
    await api.POST('/api/v1/auth/register', { body: { email, password, displayName } });
    // A fresh address is signed in at once; a known one gets a mail and no session (the answer is the same).
    await loadMe();
    setDone(m.checkMail);
    route(nextPath(), true);
  };
  return (
    <Page title={m.register}>
      <ActionForm action={act} button={m.register} onSubmit={register} status={done && <p role="status">{done}</p>}>
        <Field label={m.displayName} name="displayName" autoComplete="name" required maxLength={100} value={displayName} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label={m.email} name="email" type="email" autoComplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label={m.password} name="password" type="password" autoComplete="new-password" required minLength={8} value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </ActionForm>
      <p>
        {m.haveAccount} <a href="/sign-in">{m.signIn}</a>
      </p>
    </Page>
  );
}

/** The social sign-ins the service reports; each starts at the service and comes back to where the person was going. */
function Providers() {
  const m = t.value;
  const [providers, setProviders] = useState<{ scheme: string; displayName: string }[]>([]);
  useEffect(() => void dataOf(api.GET('/api/v1/auth/providers')).then(setProviders, () => setProviders([])), []);
  if (providers.length === 0) return null;
  return (
    <ul class="row" aria-label={m.otherSignIns}>
      {providers.map((p) => (
        <li key={p.scheme} style="list-style:none">
          <a class="button" href={`/api/v1/auth/challenge/${encodeURIComponent(p.scheme)}?returnUrl=${encodeURIComponent(nextPath())}`}>
            {m.signInWith(p.displayName)}
          </a>
        </li>
      ))}
    </ul>
  );
}
