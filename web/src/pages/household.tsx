import { useState } from 'preact/hooks';
import { api, call } from '../api';
import { setLanguage, t, type Language } from '../i18n';
import { loadMe, pickHousehold } from '../state';
import { Field, Page, Problem, fieldsOf, useAction } from '../ui';

/** First run: a person with no household makes one (name, language, time zone). */
export function NewHousehold() {
  const m = t.value;
  const [name, setName] = useState('');
  const [lang, setLang] = useState<Language>(document.documentElement.lang === 'en' ? 'en' : 'nb');
  const [timeZoneId, setZone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Oslo');
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const h = await call(api.POST('/api/v1/households', { body: { name, language: lang, timeZoneId } }));
      setLanguage(h.language);
      pickHousehold(h.id);
      await loadMe();
    });
  };
  const bad = fieldsOf(error);
  return (
    <Page title={m.newHousehold}>
      <form onSubmit={submit} class="stack">
        <Field label={m.householdName} name="name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} invalid={bad.includes('name') ? m.problem['validation_failed'] : null} />
        <div class="field">
          <label for="f-language">{m.language}</label>
          <select id="f-language" value={lang} onChange={(e) => setLang(e.currentTarget.value as Language)}>
            <option value="nb">Norsk bokmål</option>
            <option value="en">English</option>
          </select>
        </div>
        <Field label={m.timeZone} name="timeZoneId" required value={timeZoneId} onInput={(e) => setZone(e.currentTarget.value)} />
        <Problem error={error} />
        <button type="submit" disabled={busy}>
          {m.create}
        </button>
      </form>
    </Page>
  );
}
