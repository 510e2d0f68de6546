import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../../api';
import { t } from '../../i18n';
import { loadHousehold, loadMe, me, signOut } from '../../state';
import { Field, SettingsForm } from '../../ui';
import { DangerStep, SettingsPage } from './settings-page';
import { SignInMethods } from './sign-ins';

/** The person's own settings: their name, password, e-mail address, ways to sign in, and deleting the account. */
export function MeSettings() {
  const m = t.value;
  const { route } = useLocation();
  const remove = async () => {
    await api.DELETE('/api/v1/me');
    await signOut();
    route('/sign-in', true);
  };
  return (
    <SettingsPage title={m.settingsSection.me}>
      <Profile />
      <Password />
      <EmailChange />
      <SignInMethods />
      <DangerStep id="delete" title={m.deleteAccountTitle} button={m.deleteAccount} question={m.confirmDeleteAccount} yes={m.yesDeleteAccount} onYes={remove} />
    </SettingsPage>
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
    <SettingsForm id="you" title={m.nameTitle} button={m.save} done={m.saved} onSubmit={save}>
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
