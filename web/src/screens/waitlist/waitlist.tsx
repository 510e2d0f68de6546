import { api } from '../../api';
import { language, t } from '../../i18n';
import { Page } from '../../ui';
import { EmailSignup } from '../../ui/email-signup';

/** The waitlist: leave an address and hear when there is room. */
export function Waitlist() {
  const m = t.value;
  return (
    <Page title={m.waitlist}>
      <p>{m.waitlistAbout}</p>
      <EmailSignup name="waitlist-email" button={m.joinWaitlist} send={(email) => api.POST('/api/v1/waitlist', { body: { email, language: language.value } })} />
      <p>
        <a href="/register">{m.haveInvite}</a>
      </p>
    </Page>
  );
}
