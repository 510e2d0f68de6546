import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, dataOf } from '../../api';
import { t } from '../../i18n';
import { importDraft } from '../../state';
import { Problem, useAction } from '../../ui';

/** The most characters the service reads of a pasted recipe (POST .../recipes/import with { text }). */
export const PASTED_TEXT_MAX = 50_000;

type ImportBody = { url: string } | { text: string };

/** Asks the service for a preview; when it comes, the new-recipe screen opens with it, to be looked over and saved. */
function useImportPreview(householdId: string) {
  const { route } = useLocation();
  const act = useAction();
  const start = (e: Event, body: ImportBody) => {
    e.preventDefault();
    void act.run(async () => {
      importDraft.value = await dataOf(api.POST('/api/v1/households/{householdId}/recipes/import', { params: { path: { householdId } }, body }));
      route('/recipes/new');
    });
  };
  return { act, start };
}

/** Paste a recipe page's address: the service reads the page, and the new-recipe screen opens with what it found. */
export function ImportFromAddress({ householdId }: { householdId: string }) {
  const m = t.value;
  const [url, setUrl] = useState('');
  const { act, start } = useImportPreview(householdId);
  const submit = (e: Event) => start(e, { url: url.trim() });
  return (
    <details class="import" open={act.error !== null}>
      <summary>{m.importFromAddress}</summary>
      <form onSubmit={submit} class="stack">
        <div class="field">
          <label for="f-import-url">{m.recipeAddress}</label>
          <input id="f-import-url" type="url" inputMode="url" required maxLength={2048} placeholder="https://" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </div>
        <Problem error={act.error} />
        <button type="submit" disabled={act.busy}>
          {act.busy ? m.fetching : m.fetchRecipe}
        </button>
      </form>
    </details>
  );
}

/**
 * Paste a whole recipe as text (from a notes app, an e-mail, a blog): the service reads it, and the new-recipe screen
 * opens with what it found, to be looked over before it is saved, as a page's recipe is.
 */
export function ImportFromText({ householdId }: { householdId: string }) {
  const m = t.value;
  const [text, setText] = useState('');
  const { act, start } = useImportPreview(householdId);
  const submit = (e: Event) => start(e, { text });
  return (
    <details class="import" open={act.error !== null}>
      <summary>{m.importFromText}</summary>
      <form onSubmit={submit} class="stack">
        <div class="field">
          <label for="f-import-text">{m.pastedRecipe}</label>
          <p id="f-import-text-hint" class="muted hint">
            {m.pastedRecipeHint}
          </p>
          <textarea id="f-import-text" rows={10} required maxLength={PASTED_TEXT_MAX} aria-describedby="f-import-text-hint" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </div>
        <Problem error={act.error} />
        <button type="submit" disabled={act.busy || text.trim() === ''}>
          {act.busy ? m.readingRecipe : m.readRecipe}
        </button>
      </form>
    </details>
  );
}
