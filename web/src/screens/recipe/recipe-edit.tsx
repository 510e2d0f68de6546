import { useRef, useState } from 'preact/hooks';
import type { ApiProblem } from '../../api';
import { t } from '../../i18n';
import { AskFirst, Field, Page, Problem, fieldsOf } from '../../ui';
import { IngredientLines, type LineOrigin } from './ingredient-lines';
import { TAG_MAX, TAGS_MAX, type FormChange } from './recipe-form';
import { RecipePhoto } from './recipe-photo';
import { RecipeView } from './recipe-view';
import { useRecipe } from './use-recipe';

/** Where an imported recipe was read from, by the warning its preview carries: a picture read by AI, pasted text, or a page. */
const originOf = (warnings: readonly string[]): LineOrigin => (warnings.includes('read_by_ai') ? 'picture' : warnings.includes('read_from_text') ? 'text' : 'page');

/** Create (recipeId null) or read and edit a recipe; adults save and delete (after a second press), a Junior reads. */
export function RecipeEdit({ householdId, recipeId, role }: { householdId: string; recipeId: string | null; role: string }) {
  const m = t.value;
  const { draft, form, change, loaded, setLoaded, load, save, reading, readLines, submit, remove } = useRecipe(householdId, recipeId);

  if (recipeId !== null && !loaded) return <Page title={m.recipes}>{load.error ? <Problem error={load.error} /> : <p>{m.loading}</p>}</Page>;
  if (role === 'Junior' && loaded) return <RecipeView recipe={loaded} />;
  const origin = draft ? originOf(draft.warnings) : 'page';
  const paths = (save.error as ApiProblem | null)?.paths ?? [];
  const lineInvalid = (i: number, field: string) => paths.includes(`body.ingredients.${i}.${field}`) || (field === 'displayName' && paths.includes(`body.ingredients.${i}`));
  const bad = fieldsOf(save.error);
  const field = (name: 'title' | 'servings' | 'minutes' | 'steps') => (e: { currentTarget: { value: string } }) => change({ type: 'field', field: name, value: e.currentTarget.value });
  return (
    <Page title={loaded?.title ?? m.newRecipe}>
      {draft && (
        <div class="ask" role="status">
          <p>{origin === 'picture' ? m.importedByAi : origin === 'text' ? m.importedFromText : draft.sourceUrl ? m.importedFrom(new URL(draft.sourceUrl).host) : m.importedFromPage}</p>
          {draft.warnings.includes('read_from_page_layout') && <p>{m.readFromPageLayout}</p>}
          {draft.warnings.includes('servings_guessed') && <p>{origin === 'picture' ? m.servingsGuessedPicture : origin === 'text' ? m.servingsGuessedText : m.servingsGuessed}</p>}
          {form.rows.some((r) => r.check !== undefined) && <p>{origin === 'picture' ? m.checkMarkedPicture : origin === 'text' ? m.checkMarkedText : m.checkMarkedLines}</p>}
        </div>
      )}
      {loaded && <RecipePhoto householdId={householdId} recipe={loaded} adult onChange={setLoaded} />}
      {loaded?.sourceUrl && (
        <p class="muted">
          {m.source}: <a href={loaded.sourceUrl} rel="noopener noreferrer" target="_blank">{new URL(loaded.sourceUrl).host}</a>
        </p>
      )}
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label={m.recipeTitle} name="title" required maxLength={200} value={form.title} onInput={field('title')} invalid={bad.includes('title') ? m.problem['validation_failed'] : null} />
        <div class="row">
          <Field label={m.servings} name="servings" type="number" min={1} max={100} required value={form.servings} onInput={field('servings')} invalid={bad.includes('servings') ? m.servingsRange : null} />
          <Field label={m.totalMinutes} name="totalMinutes" type="number" min={0} max={1440} inputMode="numeric" value={form.minutes} onInput={field('minutes')} />
        </div>
        <IngredientLines origin={origin} rows={form.rows} quick={form.quick} change={change} invalid={lineInvalid} onReadLines={readLines} reading={reading} />
        <div class="field">
          <label for="f-steps">{m.steps}</label>
          <textarea id="f-steps" rows={5} value={form.steps} onInput={field('steps')} />
        </div>
        <TagsField tags={form.tags} draft={form.tagDraft} change={change} invalid={paths.some((p) => p.startsWith('body.tags'))} />
        <Problem error={save.error} />
        <div class="row">
          <button type="submit" disabled={save.busy}>
            {m.save}
          </button>
          <a href="/recipes">{m.cancel}</a>
        </div>
      </form>
      {loaded && <DeleteRecipe title={loaded.title} busy={save.busy} onDelete={() => void remove()} />}
    </Page>
  );
}

/**
 * The recipe's tags as chips, each with its own remove button, and a field where Enter or a comma ends a tag. A
 * removed chip hands the focus back to the field, so the keyboard never falls to the top of the page.
 */
function TagsField({ tags, draft, change, invalid }: { tags: readonly string[]; draft: string; change: (c: FormChange) => void; invalid: boolean }) {
  const m = t.value;
  const input = useRef<HTMLInputElement>(null);
  const full = tags.length >= TAGS_MAX;
  return (
    <div class="field tags-field">
      <label for="f-tags">{m.tagsLabel}</label>
      {tags.length > 0 && (
        <ul class="tag-chips" aria-label={m.tagsChosen}>
          {tags.map((tag) => (
            <li key={tag} class="tag-chip">
              <span>{tag}</span>
              <button
                type="button"
                class="tag-remove"
                aria-label={m.removeTag(tag)}
                onClick={() => {
                  change({ type: 'removeTag', tag });
                  input.current?.focus();
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={input}
        id="f-tags"
        value={draft}
        maxLength={TAG_MAX}
        enterKeyHint="done"
        autoComplete="off"
        aria-describedby="f-tags-help"
        aria-invalid={invalid ? 'true' : undefined}
        onInput={(e) => change({ type: 'tagTyped', value: e.currentTarget.value })}
        onKeyDown={(e) => {
          // Enter ends the tag being typed; it never sends the form from here.
          if (e.key !== 'Enter') return;
          e.preventDefault();
          change({ type: 'tagTyped', value: e.currentTarget.value, done: true });
        }}
      />
      <p id="f-tags-help" class={invalid ? 'field-error' : 'muted'} aria-live="polite">
        {invalid ? m.tagsInvalid : full ? m.tagsFull : m.tagsHelp}
      </p>
    </div>
  );
}

/** Deleting a saved recipe, after a second press. */
function DeleteRecipe({ title, busy, onDelete }: { title: string; busy: boolean; onDelete: () => void }) {
  const m = t.value;
  const [confirming, setConfirming] = useState(false);
  return (
    <section class="danger-zone" aria-labelledby="delete-h">
      <h2 id="delete-h">{m.deleteRecipe}</h2>
      {confirming ? (
        <AskFirst id="confirm-delete" question={m.confirmDelete(title)} yes={m.yesDelete} danger busy={busy} onYes={onDelete} onCancel={() => setConfirming(false)} />
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          {m.deleteRecipeNamed(title)}
        </button>
      )}
    </section>
  );
}
