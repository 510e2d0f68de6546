import { useState } from 'preact/hooks';
import { ApiProblem, api } from '../../api';
import { t } from '../../i18n';
import { ActionForm, Page, useAction } from '../../ui';

/** Feedback to the people who run the service, with a screenshot if the person wants to show something. */
export function Feedback({ householdId }: { householdId: string | null }) {
  const m = t.value;
  const [message, setMessage] = useState('');
  const [picture, setPicture] = useState<File | null>(null);
  const [sent, setSent] = useState(false);
  const act = useAction();
  const send = async (formElement: HTMLFormElement) => {
    if (picture && picture.size > SCREENSHOT_MAX_BYTES) throw new ApiProblem(400, 'value_too_long', ['screenshot']);
    const form = new FormData();
    form.set('report', JSON.stringify({ message: message.trim(), screen: document.referrer ? new URL(document.referrer).pathname.slice(0, 200) : null, build: null, householdId, failedCalls: [] }));
    if (picture) form.set('screenshot', picture);
    await api.POST('/api/v1/feedback', { body: form as never, bodySerializer: (b: unknown) => b as FormData });
    setMessage('');
    setPicture(null);
    // The file box is the browser's own: emptied with the form.
    formElement.reset();
    setSent(true);
  };
  return (
    <Page title={m.feedback}>
      <p>{m.feedbackAbout}</p>
      {sent && <p role="status">{m.feedbackThanks}</p>}
      <ActionForm action={act} button={m.sendFeedback} onSubmit={send}>
        <label for="f-feedback">{m.feedbackMessage}</label>
        <textarea id="f-feedback" required maxLength={4000} rows={6} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
        <label for="f-screenshot">{m.feedbackPicture}</label>
        <input id="f-screenshot" type="file" accept="image/png,image/jpeg,image/webp" onChange={(e) => setPicture(e.currentTarget.files?.[0] ?? null)} />
      </ActionForm>
    </Page>
  );
}

/** The service's limit on a screenshot (5 MiB), said before the upload instead of after it. */
const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;
