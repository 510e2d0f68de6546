import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api';
import { t } from '../../i18n';
import { loadMe } from '../../state';
import { ActionForm, Field, Page, Problem, useAction } from '../../ui';

const query = () => new URLSearchParams(window.location.search);

/** Forgot password: always the same answer, whether or not the address has an account. */
export function ForgotPassword() {
  const m = t.value;
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const act = useAction();
  const send = async () => {
    await api.POST('/api/v1/auth/forgot-password', { body: { email } });
    setSent(true);
  };
  return (
    <Page title={m.forgotPassword}>
      <ActionForm action={act} button={m.sendLink} onSubmit={send} status={sent && <p role="status">{m.resetSent}</p>}>
        <Field label={m.email} name="email" type="email" autoComplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </ActionForm>
      <p>
        <a href="/sign-in">{m.signIn}</a>
      </p>
    </Page>
  );
}

/** The reset-password link of the mail: a new password, or why the link no longer works. */
export function ResetPassword() {
  const m = t.value;
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const act = useAction();
  const save = async () => {
    const q = query();
    await api.POST('/api/v1/auth/reset-password', { body: { email: q.get('email') ?? '', token: q.get('token') ?? '', newPassword: password } });
    setDone(true);
  };
  // A link that no longer works offers a new one, below the sentence that says so.
  const expired = (act.error as { code?: string } | null)?.code === 'invalid_token';
  return (
    <Page title={m.resetPassword}>
      {done ? (
        <p role="status">
          {m.passwordChanged} <a href="/sign-in">{m.signIn}</a>
        </p>
      ) : (
        <ActionForm action={act} button={m.save} onSubmit={save} status={expired && <p><a href="/forgot-password">{m.sendLink}</a></p>}>
          <Field label={m.password} name="password" type="password" autoComplete="new-password" required minLength={8} value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </ActionForm>
      )}
    </Page>
  );
}

/** A mail link that confirms on opening (confirm e-mail, confirm e-mail change), and says how it went. */
function ConfirmOnOpen({ title, confirmed, confirm }: { title: string; confirmed: string; confirm: (q: URLSearchParams) => Promise<unknown> }) {
  const m = t.value;
  const { error, run } = useAction();
  const [ok, setOk] = useState(false);
  useEffect(() => {
    void run(async () => {
      await confirm(query());
      setOk(true);
      await loadMe();
    });
  }, []);
  return (
    <Page title={title}>
      {ok && <p role="status">{confirmed}</p>}
      <Problem error={error} />
      <p>
        <a href="/">{m.goToApp}</a>
      </p>
    </Page>
  );
}

export function ConfirmEmail() {
  const m = t.value;
  return <ConfirmOnOpen title={m.confirmEmail} confirmed={m.emailConfirmed} confirm={(q) => api.POST('/api/v1/auth/confirm-email', { body: { userId: q.get('userId') ?? '', token: q.get('token') ?? '' } })} />;
}

export function ConfirmEmailChange() {
  const m = t.value;
  return (
    <ConfirmOnOpen
      title={m.confirmEmailChange}
      confirmed={m.emailChanged}
      confirm={(q) => api.POST('/api/v1/auth/confirm-email-change', { body: { userId: q.get('userId') ?? '', newEmail: q.get('newEmail') ?? '', token: q.get('token') ?? '' } })}
    />
  );
}
