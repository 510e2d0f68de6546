import { useState } from 'preact/hooks';
import { ApiProblem, api, dataOf, type Household } from '../api';
import { t } from '../i18n';
import { loadMe, pickHousehold } from '../state';
import { Problem, useAction } from '.';

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
    return await dataOf(api.POST('/api/v1/households/import', { body: file as never, bodySerializer: (b: unknown) => b as File }));
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
