import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { setLanguage, t, type Language } from '../../i18n';
import { loadMe, pickHousehold } from '../../state';
import { Field, LanguageAndZone, Page, Problem, fieldsOf, useAction } from '../../ui';
import { ImportHousehold } from '../../ui/import-household';

const DEFAULT_ZONE = 'Europe/Oslo';

const DEFAULT_DINNER = '18:00';

/** First run: a person with no household makes one (name, language, time zone, dinner time). */
export function NewHousehold() {
  const m = t.value;
  const [name, setName] = useState('');
  const [lang, setLang] = useState<Language>(document.documentElement.lang === 'en' ? 'en' : 'nb');
  const [zones, setZones] = useState<string[]>([]);
  const [timeZoneId, setZone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_ZONE);
  const [dinnerTime, setDinner] = useState(DEFAULT_DINNER);
  const { busy, error, run } = useAction();
  useEffect(() => {
    // The zones the service accepts; the browser's own is picked when the service knows it.
    void dataOf(api.GET('/api/v1/time-zones')).then(
      (r) => {
        const sorted = [...r.timeZones].sort();
        setZones(sorted);
        setZone((z) => (sorted.includes(z) ? z : DEFAULT_ZONE));
      },
      () => setZones([]),
    );
  }, []);
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const h = await dataOf(api.POST('/api/v1/households', { body: { name, language: lang, timeZoneId } }));
      // POST /api/v1/households takes no dinner time; a time other than the default is set right after.
      // The household exists either way, so a failure here must not make the person create it twice.
      if (dinnerTime !== h.dinnerTime)
        await api.PATCH('/api/v1/households/{householdId}', { params: { path: { householdId: h.id } }, body: { dinnerTime } }).catch(() => undefined);
      setLanguage(h.language);
      pickHousehold(h.id);
      await loadMe();
    });
  };
  const bad = fieldsOf(error);
  return (
    <Page title={m.newHousehold}>
      <form onSubmit={submit} class="stack">
        <Field label={m.householdName} name="name" required maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} invalid={bad.includes('name') ? m.problem['validation_failed'] : null} />
        <LanguageAndZone id="f-new" language={lang} onLanguage={setLang} zone={timeZoneId} zones={zones} onZone={setZone} />
        <Field label={m.dinnerTime} name="dinnerTime" type="time" required value={dinnerTime} onInput={(e) => setDinner(e.currentTarget.value)} invalid={bad.includes('dinnerTime') ? m.problem['validation_failed'] : null} />
        <Problem error={error} />
        <button type="submit" disabled={busy}>
          {m.create}
        </button>
      </form>
      <ImportHousehold level="h2" />
    </Page>
  );
}
