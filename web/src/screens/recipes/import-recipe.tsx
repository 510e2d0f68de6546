import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiProblem, api, dataOf, type RecipeImportPreview } from '../../api';
import { t } from '../../i18n';
import { importDraft } from '../../state';
import { Problem, useAction } from '../../ui';

/** The most characters the service reads of a pasted recipe (POST .../recipes/import with { text }). */
export const PASTED_TEXT_MAX = 50_000;

/** Asks the service for a preview; when it comes, the new-recipe screen opens with it, to be looked over and saved. */
function useImportPreview() {
  const { route } = useLocation();
  const act = useAction();
  const start = (e: Event, preview: () => Promise<RecipeImportPreview>) => {
    e.preventDefault();
    void act.run(async () => {
      importDraft.value = await preview();
      route('/recipes/new');
    });
  };
  return { act, start };
}

/** One way to import, folded: its field, what went wrong (its sentence), and its button. */
function ImportChoice(props: { summary: string; onSubmit: (e: Event) => void; act: { busy: boolean; error: unknown }; problem?: ComponentChildren; ready: boolean; button: string; busyButton: string; children: ComponentChildren }) {
  const { act } = props;
  return (
    <details class="import" open={act.error !== null}>
      <summary>{props.summary}</summary>
      <form onSubmit={props.onSubmit} class="stack">
        <div class="field">{props.children}</div>
        {props.problem ?? <Problem error={act.error} />}
        <button type="submit" disabled={act.busy || !props.ready}>
          {act.busy ? props.busyButton : props.button}
        </button>
      </form>
    </details>
  );
}

const importPath = (householdId: string) => ({ params: { path: { householdId } } });

/** Paste a recipe page's address: the service reads the page, and the new-recipe screen opens with what it found. */
export function ImportFromAddress({ householdId }: { householdId: string }) {
  const m = t.value;
  const [url, setUrl] = useState('');
  const { act, start } = useImportPreview();
  const submit = (e: Event) => start(e, () => dataOf(api.POST('/api/v1/households/{householdId}/recipes/import', { ...importPath(householdId), body: { url: url.trim() } })));
  return (
    <ImportChoice summary={m.importFromAddress} onSubmit={submit} act={act} ready button={m.fetchRecipe} busyButton={m.fetching}>
      <label for="f-import-url">{m.recipeAddress}</label>
      <input id="f-import-url" type="url" inputMode="url" required maxLength={2048} placeholder="https://" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
    </ImportChoice>
  );
}

/**
 * Paste a whole recipe as text (from a notes app, an e-mail, a blog): the service reads it, and the new-recipe screen
 * opens with what it found, to be looked over before it is saved, as a page's recipe is.
 */
export function ImportFromText({ householdId }: { householdId: string }) {
  const m = t.value;
  const [text, setText] = useState('');
  const { act, start } = useImportPreview();
  const submit = (e: Event) => start(e, () => dataOf(api.POST('/api/v1/households/{householdId}/recipes/import', { ...importPath(householdId), body: { text } })));
  return (
    <ImportChoice summary={m.importFromText} onSubmit={submit} act={act} ready={text.trim() !== ''} button={m.readRecipe} busyButton={m.readingRecipe}>
      <label for="f-import-text">{m.pastedRecipe}</label>
      <p id="f-import-text-hint" class="muted hint">
        {m.pastedRecipeHint}
      </p>
      <textarea id="f-import-text" rows={10} required maxLength={PASTED_TEXT_MAX} aria-describedby="f-import-text-hint" value={text} onInput={(e) => setText(e.currentTarget.value)} />
    </ImportChoice>
  );
}

type Choices = { readonly picture: { readonly mediaTypes: readonly string[]; readonly maxBytes: number } | null };

/** What a recipe can be imported from here (GET .../recipes/import/choices); null until known, or when unknown. */
export function useImportChoices(householdId: string): Choices | null {
  const [choices, setChoices] = useState<Choices | null>(null);
  useEffect(() => {
    // Only the picture choice depends on it: without an answer (offline, say) it is not offered.
    api
      .GET('/api/v1/households/{householdId}/recipes/import/choices', importPath(householdId))
      .then((res) => setChoices(res.data ?? null))
      .catch(() => setChoices(null));
  }, [householdId]);
  return choices;
}

/** Why a chosen file is not sent (the refusal the service would give), or null when it may be. */
function pictureRefusal(file: File, picture: NonNullable<Choices['picture']>): ApiProblem | null {
  if (!picture.mediaTypes.includes(file.type)) return new ApiProblem(422, 'recipe_picture_not_supported');
  if (file.size > picture.maxBytes) return new ApiProblem(413, 'payload_too_large');
  return null;
}

/**
 * A photo or a PDF of a recipe, read by the service's AI (shown only when the service has one): the new-recipe screen
 * opens with what it read, every line to be looked over before it is saved. The quota's and the pause's 429 get
 * sentences of their own here (the planner's speak of its notes).
 */
export function ImportFromPicture({ householdId, picture }: { householdId: string; picture: NonNullable<Choices['picture']> }) {
  const m = t.value;
  const [file, setFile] = useState<File | null>(null);
  const { act, start } = useImportPreview();
  const submit = (e: Event) =>
    start(e, async () => {
      if (file === null) throw new ApiProblem(422, 'recipe_picture_not_supported');
      const refused = pictureRefusal(file, picture);
      if (refused) throw refused;
      return dataOf(
        api.POST('/api/v1/households/{householdId}/recipes/import/picture', {
          ...importPath(householdId),
          // The file's bytes as they are, with its own type: the service sniffs them.
          body: file as unknown as string,
          bodySerializer: (body: unknown) => body as BodyInit,
          headers: { 'Content-Type': file.type },
        }),
      );
    });
  const code = (act.error as ApiProblem | null)?.code ?? null;
  const aiRefusal = code === 'ai_quota_used' ? m.pictureAiUsed : code === 'ai_paused' ? m.pictureAiPaused : null;
  const problem = aiRefusal && (
    <p class="problem" role="alert">
      {aiRefusal}
    </p>
  );
  return (
    <ImportChoice summary={m.importFromPicture} onSubmit={submit} act={act} problem={problem || undefined} ready={file !== null} button={m.readPicture} busyButton={m.readingPicture}>
      <label for="f-import-picture">{m.recipePicture}</label>
      <p id="f-import-picture-hint" class="muted hint">
        {m.recipePictureHint}
      </p>
      <input id="f-import-picture" type="file" accept={picture.mediaTypes.join(',')} required aria-describedby="f-import-picture-hint" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
    </ImportChoice>
  );
}
