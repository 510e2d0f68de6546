import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf, type Recipe } from '../../api';
import { number, unitName } from '../../format';
import { language, t } from '../../i18n';
import { useLocation } from 'preact-iso';
import { importDraft } from '../../state';
import { Field, Page, Problem, fieldsOf, useAction } from '../../ui';

type Line = Recipe['ingredients'][number];
/** One ingredient line as the form holds it: the amount as typed (comma or point), the rest as the service has it. */
interface Row {
  readonly key: number;
  quantity: string;
  unit: string;
  displayName: string;
  optional: boolean;
  /** The page's own text of a line read by an import that is not sure of it: the person should look. */
  readonly check?: string | undefined;
  /** Kept as they are: the form does not edit base recipes or references yet. */
  readonly baseRecipeId: string | null;
  readonly reference: string | null;
}

const UNITS = ['g', 'kg', 'dl', 'l', 'ml', 'ss', 'ts', 'stk', 'pk', 'boks'];
let nextKey = 1;

const rowOf = (i: Pick<Line, 'quantity' | 'unit' | 'displayName' | 'optional' | 'baseRecipeId' | 'reference'>): Row => ({
  key: nextKey++,
  quantity: i.quantity === null ? '' : String(i.quantity).replace('.', language.value === 'en' ? '.' : ','),
  // The service keeps one spelling per unit (tbsp, pcs); the form shows the one this language writes (ss, stk).
  unit: i.unit === null ? '' : (t.value.unitShown[i.unit] ?? i.unit),
  displayName: i.displayName,
  optional: i.optional,
  baseRecipeId: i.baseRecipeId,
  reference: i.reference,
});

/** A typed amount as a number: "1,5" and "1.5" alike; NaN when it is not one. */
const amountOf = (s: string) => (s.trim() === '' ? null : Number(s.trim().replace(',', '.')));

/** Create (recipeId null) or read and edit a recipe; adults save and delete (after a second press), a Junior reads. */
export function RecipeEdit({ householdId, recipeId, role }: { householdId: string; recipeId: string | null; role: string }) {
  const { route } = useLocation();
  const m = t.value;
  const adult = role !== 'Junior';
  // A recipe read from a page: the form starts from it (in its first render, so the empty form never shows), lines
  // the parser was unsure of marked to be looked at.
  const [draft] = useState(() => (recipeId === null ? importDraft.peek() : null));
  const [loaded, setLoaded] = useState<Recipe | null>(null);
  const [title, setTitle] = useState(draft?.recipe.title ?? '');
  const [servings, setServings] = useState(draft ? String(draft.recipe.servings) : '4');
  const [minutes, setMinutes] = useState(draft?.recipe.totalMinutes == null ? '' : String(draft.recipe.totalMinutes));
  const [rows, setRows] = useState<Row[]>(() =>
    draft ? draft.recipe.ingredients.map((i, n) => ({ ...rowOf(i), ...(draft.lines[n] && draft.lines[n].confidence !== 'high' ? { check: draft.lines[n].original } : {}) })) : [],
  );
  const [steps, setSteps] = useState(draft ? draft.recipe.steps.join('\n') : '');
  const [quick, setQuick] = useState('');
  const [confirming, setConfirming] = useState(false);
  const load = useAction();
  const save = useAction();
  useEffect(() => {
    // The draft is taken: opening the new-recipe screen again starts empty.
    if (draft) importDraft.value = null;
    if (recipeId === null) return;
    void load.run(async () => {
      // An address that names no recipe (a typo, an old bookmark) is "not found", not a form error.
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(recipeId)) throw new ApiProblem(404, 'recipe_not_found');
      const r = await dataOf(api.GET('/api/v1/households/{householdId}/recipes/{recipeId}', { params: { path: { householdId, recipeId } } }));
      setLoaded(r);
      setTitle(r.title);
      setServings(String(r.servings));
      setMinutes(r.totalMinutes === null ? '' : String(r.totalMinutes));
      setRows(r.ingredients.map(rowOf));
      setSteps(r.steps.join('\n'));
    });
  }, [householdId, recipeId]);

  // A changed line has been looked at: its mark goes.
  const change = (key: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch, check: undefined } : r)));
  // Typed or pasted lines are read by the service, with the reader a recipe imported from a page goes through.
  const reading = useAction();
  const addQuick = () => {
    const lines = quick.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) return;
    void reading.run(async () => {
      const read = await dataOf(api.POST('/api/v1/ingredient-lines', { body: { lines } }));
      setRows((rs) => [...rs, ...read.lines.map((l) => rowOf({ ...l, baseRecipeId: null, reference: null }))]);
      setQuick('');
    });
  };
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const total = minutes.trim() === '' ? null : Number(minutes);
      const body = {
        // An import keeps where it came from and its picture; an edit sends neither, so the recipe keeps its own.
        ...(draft ? { sourceUrl: draft.recipe.sourceUrl, imageUrl: draft.recipe.imageUrl } : {}),
        title,
        servings: Number(servings),
        activeMinutes: recipeId !== null && loaded && total !== null && loaded.activeMinutes !== null && loaded.activeMinutes <= total ? loaded.activeMinutes : null,
        totalMinutes: total,
        steps: steps.split('\n').map((s) => s.trim()).filter((s) => s !== ''),
        ingredients: rows.map((r) => ({
          displayName: r.displayName,
          quantity: amountOf(r.quantity),
          unit: r.unit.trim() === '' ? null : r.unit.trim(),
          optional: r.optional,
          baseRecipeId: r.baseRecipeId,
          reference: r.reference,
        })),
      };
      // An amount that is not a number is said here, beside its line, before the service is asked.
      const badAmount = body.ingredients.findIndex((i) => i.quantity !== null && !(Number.isFinite(i.quantity) && i.quantity > 0));
      if (badAmount >= 0) throw new ApiProblem(400, 'validation_failed', ['quantity'], {}, [`body.ingredients.${badAmount}.quantity`]);
      if (recipeId === null) await api.POST('/api/v1/households/{householdId}/recipes', { params: { path: { householdId } }, body });
      else await api.PUT('/api/v1/households/{householdId}/recipes/{recipeId}', { params: { path: { householdId, recipeId } }, body });
      route('/recipes');
    });
  };
  const remove = () =>
    save.run(async () => {
      await api.DELETE('/api/v1/households/{householdId}/recipes/{recipeId}', { params: { path: { householdId, recipeId: recipeId! } } });
      route('/recipes', true);
    });

  if (recipeId !== null && !loaded) return <Page title={m.recipes}>{load.error ? <Problem error={load.error} /> : <p>{m.loading}</p>}</Page>;
  if (!adult && loaded) return <RecipeView recipe={loaded} />;
  const paths = (save.error as ApiProblem | null)?.paths ?? [];
  const rowInvalid = (i: number, field: string) => paths.includes(`body.ingredients.${i}.${field}`) || (field === 'displayName' && paths.includes(`body.ingredients.${i}`));
  const bad = fieldsOf(save.error);
  return (
    <Page title={recipeId === null ? m.newRecipe : loaded!.title}>
      {draft && (
        <div class="ask" role="status">
          <p>{draft.sourceUrl ? m.importedFrom(new URL(draft.sourceUrl).host) : m.importedFromPage}</p>
          {draft.warnings.includes('servings_guessed') && <p>{m.servingsGuessed}</p>}
          {rows.some((r) => r.check !== undefined) && <p>{m.checkMarkedLines}</p>}
        </div>
      )}
      {loaded?.image && <img class="recipe-image" src={loaded.image.href} alt="" width={640} height={360} />}
      {loaded?.sourceUrl && (
        <p class="muted">
          {m.source}: <a href={loaded.sourceUrl} rel="noopener noreferrer" target="_blank">{new URL(loaded.sourceUrl).host}</a>
        </p>
      )}
      <form onSubmit={submit} class="stack">
        <Field label={m.recipeTitle} name="title" required maxLength={200} value={title} onInput={(e) => setTitle(e.currentTarget.value)} invalid={bad.includes('title') ? m.problem['validation_failed'] : null} />
        <div class="row">
          <Field label={m.servings} name="servings" type="number" min={1} max={100} required value={servings} onInput={(e) => setServings(e.currentTarget.value)} invalid={bad.includes('servings') ? m.servingsRange : null} />
          <Field label={m.totalMinutes} name="totalMinutes" type="number" min={0} max={1440} inputMode="numeric" value={minutes} onInput={(e) => setMinutes(e.currentTarget.value)} />
        </div>
        <fieldset class="lines">
          <legend>{m.ingredientsHeading}</legend>
          {rows.length === 0 && <p class="muted">{m.noIngredients}</p>}
          <ol class="lines">
            {rows.map((r, i) => (
              <li key={r.key} class={r.check !== undefined ? 'line check' : 'line'} aria-describedby={r.check !== undefined ? `c-${r.key}` : undefined}>
                {r.check !== undefined && (
                  <p id={`c-${r.key}`} class="from-page">
                    {m.fromPage(r.check)}
                  </p>
                )}
                <div class="line-fields">
                  <div class="field amount">
                    <label for={`q-${r.key}`}>{m.amount}</label>
                    <input id={`q-${r.key}`} inputMode="decimal" value={r.quantity} aria-invalid={rowInvalid(i, 'quantity') ? 'true' : undefined} onInput={(e) => change(r.key, { quantity: e.currentTarget.value })} />
                  </div>
                  <div class="field unit">
                    <label for={`u-${r.key}`}>{m.unit}</label>
                    <input id={`u-${r.key}`} list="units" maxLength={32} value={r.unit} onInput={(e) => change(r.key, { unit: e.currentTarget.value })} />
                  </div>
                  <div class="field food">
                    <label for={`n-${r.key}`}>{m.food}</label>
                    <input id={`n-${r.key}`} required maxLength={200} value={r.displayName} aria-invalid={rowInvalid(i, 'displayName') ? 'true' : undefined} onInput={(e) => change(r.key, { displayName: e.currentTarget.value })} />
                  </div>
                </div>
                {(rowInvalid(i, 'quantity') || rowInvalid(i, 'displayName')) && (
                  <p class="field-error">{rowInvalid(i, 'quantity') ? m.amountInvalid : m.foodInvalid}</p>
                )}
                <div class="row">
                  <label class="check">
                    <input type="checkbox" checked={r.optional} onChange={(e) => change(r.key, { optional: e.currentTarget.checked })} />
                    {m.optional}
                  </label>
                  <button type="button" class="link" onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))} aria-label={`${m.remove}: ${r.displayName || m.food}`}>
                    {m.remove}
                  </button>
                </div>
              </li>
            ))}
          </ol>
          <datalist id="units">
            {UNITS.map((u) => (
              <option key={u} value={u} />
            ))}
          </datalist>
          <div class="field">
            <label for="f-quick">{m.addIngredients}</label>
            <textarea id="f-quick" rows={2} value={quick} onInput={(e) => setQuick(e.currentTarget.value)} />
          </div>
          <p>
            <button type="button" onClick={addQuick} disabled={reading.busy}>
              {m.addLines}
            </button>
          </p>
          <Problem error={reading.error} />
        </fieldset>
        <div class="field">
          <label for="f-steps">{m.steps}</label>
          <textarea id="f-steps" rows={5} value={steps} onInput={(e) => setSteps(e.currentTarget.value)} />
        </div>
        <Problem error={save.error} />
        <div class="row">
          <button type="submit" disabled={save.busy}>
            {m.save}
          </button>
          <a href="/recipes">{m.cancel}</a>
        </div>
      </form>
      {recipeId !== null && (
        <section class="danger-zone" aria-labelledby="delete-h">
          <h2 id="delete-h">{m.deleteRecipe}</h2>
          {confirming ? (
            <div class="ask" role="alertdialog" aria-labelledby="confirm-delete">
              <p id="confirm-delete">{m.confirmDelete(loaded!.title)}</p>
              <div class="row">
                <button type="button" class="danger" disabled={save.busy} onClick={() => void remove()}>
                  {m.yesDelete}
                </button>
                <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                  {m.cancel}
                </button>
              </div>
            </div>
          ) : (
            <button type="button" class="secondary" onClick={() => setConfirming(true)}>
              {m.deleteRecipeNamed(loaded!.title)}
            </button>
          )}
        </section>
      )}
    </Page>
  );
}

/** A recipe to cook from: what it needs and its steps. */
function RecipeView({ recipe }: { recipe: Recipe }) {
  const m = t.value;
  return (
    <Page title={recipe.title}>
      {recipe.image && <img class="recipe-image" src={recipe.image.href} alt="" width={640} height={360} />}
      <p class="muted">
        {m.portions(recipe.servings)}
        {recipe.totalMinutes !== null && ` · ${m.minutes(recipe.totalMinutes)}`}
      </p>
      <h2>{m.ingredientsHeading}</h2>
      <ul>
        {recipe.ingredients.map((i, n) => (
          <li key={n}>
            {[i.quantity === null ? '' : number(i.quantity), i.unit === null ? '' : unitName(i.unit), i.displayName].filter((x) => x !== '').join(' ')}
            {i.optional && <span class="muted"> ({m.optional.toLowerCase()})</span>}
          </li>
        ))}
      </ul>
      {recipe.steps.length > 0 && (
        <>
          <h2>{m.steps}</h2>
          <ol>
            {recipe.steps.map((s, n) => (
              <li key={n}>{s}</li>
            ))}
          </ol>
        </>
      )}
      <p>
        <a href="/recipes">{m.recipes}</a>
      </p>
    </Page>
  );
}
