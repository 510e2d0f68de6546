import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { Field, Problem, useAction } from '.';

/**
 * An address to confirm by mail (the dinner-price mail, the waitlist): the service answers the same whatever it knew,
 * so the form only ever says to look in the inbox. No browser check of the address: the service's refusal is a sentence.
 */
export function EmailSignup({ name, button, send }: { name: string; button: string; send: (email: string) => Promise<unknown> }) {
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
