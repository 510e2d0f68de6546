import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, call, type Household } from '../api';
import { setLanguage, t, type Language } from '../i18n';
import { loadMe, pickHousehold } from '../state';
import { Field, LanguageAndZone, Page, Problem, fieldsOf, useAction } from '../ui';

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
    void call(api.GET('/api/v1/time-zones')).then(
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
      const h = await call(api.POST('/api/v1/households', { body: { name, language: lang, timeZoneId } }));
      // POST /api/v1/households takes no dinner time; a time other than the default is set right after.
      // The household exists either way, so a failure here must not make the person create it twice.
      if (dinnerTime !== h.dinnerTime)
        await call(api.PATCH('/api/v1/households/{householdId}', { params: { path: { householdId: h.id } }, body: { dinnerTime } })).catch(() => undefined);
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

/** How much of a file is read to see that it is JSON at all before it is sent. */
const GLANCE_BYTES = 1024;

/**
 * Sends a downloaded household as the file is (a large one is not read into the page, nor parsed and written again),
 * after a glance that it could be JSON. The service checks a file as it checks any request; here a malformed request
 * means a file with an error, and an unknown time zone is the file's, not one picked from a list.
 */
async function sendHouseholdFile(file: File): Promise<Household> {
  const start = (await file.slice(0, GLANCE_BYTES).text()).replace(/^\uFEFF/, '').trimStart();
  if (file.size === 0 || (start !== '' && !start.startsWith('{'))) throw new ApiProblem(400, 'not_a_household_document');
  try {
    return await call(api.POST('/api/v1/households/import', { body: file as never, bodySerializer: (b: unknown) => b as File }));
  } catch (err) {
    if (!(err instanceof ApiProblem)) throw err;
    if (err.code === 'validation_failed' || err.code === 'value_too_long' || err.code === 'unsupported_media_type') throw new ApiProblem(err.status, 'household_document_invalid');
    if (err.code === 'time_zone_unknown') throw new ApiProblem(err.status, 'household_time_zone_unknown');
    throw err;
  }
}

/**
 * A new household from a file "Download the household" gave: the person becomes its Owner and it opens. Said on the
 * first-run page and in the settings; `level` is its heading's place under the page's.
 */
export function ImportHousehold({ level }: { level: 'h2' | 'h3' }) {
  const m = t.value;
  const Heading = level;
  const [file, setFile] = useState<File | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const act = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    if (!file) return;
    setMade(null);
    void act.run(async () => {
      const h = await sendHouseholdFile(file);
      // The memberships first: picked before they hold it, the screens would open another household meanwhile.
      await loadMe();
      pickHousehold(h.id);
      form.reset();
      setFile(null);
      setMade(h.name);
    });
  };
  return (
    <section aria-labelledby="import-h" class="import-household">
      <Heading id="import-h">{m.importHousehold}</Heading>
      <p class="muted">{m.importAbout}</p>
      <form onSubmit={submit} class="stack">
        <div class="field">
          <label for="f-household-file">{m.householdFile}</label>
          <input id="f-household-file" name="householdFile" type="file" accept=".json,application/json" required onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        </div>
        <Problem error={act.error} />
        <p role="status" class="import-status">
          {act.busy ? m.importing : made ? m.householdImported(made) : ''}
        </p>
        <button type="submit" disabled={act.busy}>
          {m.makeFromFile}
        </button>
      </form>
    </section>
  );
}
