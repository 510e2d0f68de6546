import { useEffect, useState } from 'preact/hooks';
import { api, call, type Recipe } from '../api';
import { t } from '../i18n';
import { Field, Page, Problem, useAction } from '../ui';

/** "400 g kjøttdeig", "2 stk løk", "salt": amount, unit and food of one ingredient line. */
export function parseLine(line: string) {
  const m = /^\s*(\d+(?:[.,]\d+)?)\s*([a-zA-ZæøåÆØÅ.]+)?\s+(.+)$/.exec(line);
  if (!m) return { displayName: line.trim(), quantity: null, unit: null, optional: false, baseRecipeId: null, reference: null };
  return { displayName: m[3]!.trim(), quantity: Number(m[1]!.replace(',', '.')), unit: m[2] ?? null, optional: false, baseRecipeId: null, reference: null };
}

export function Recipes({ householdId }: { householdId: string }) {
  const m = t.value;
  const [items, setItems] = useState<Recipe[] | null>(null);
  const [title, setTitle] = useState('');
  const [servings, setServings] = useState('4');
  const [lines, setLines] = useState('');
  const [q, setQ] = useState('');
  const load = useAction();
  const save = useAction();
  const refresh = (search = q) =>
    load.run(async () =>
      setItems((await call(api.GET('/api/v1/households/{householdId}/recipes', { params: { path: { householdId }, query: { limit: '100', ...(search.trim() ? { q: search.trim() } : {}) } } }))).items),
    );
  useEffect(() => void refresh(''), [householdId]);
  const remove = (r: Recipe) =>
    load.run(async () => {
      await call(api.DELETE('/api/v1/households/{householdId}/recipes/{recipeId}', { params: { path: { householdId, recipeId: r.id } } }));
      await refresh();
    });
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const ingredients = lines.split('\n').filter((l) => l.trim() !== '').map(parseLine);
      await call(api.POST('/api/v1/households/{householdId}/recipes', { params: { path: { householdId } }, body: { title, servings: Number(servings), activeMinutes: null, totalMinutes: null, steps: [], ingredients } }));
      setTitle('');
      setLines('');
      await refresh();
    });
  };
  return (
    <Page title={m.recipes}>
      <form
        role="search"
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void refresh();
        }}
      >
        <label for="f-q" class="visually-hidden">
          {m.search}
        </label>
        <input id="f-q" type="search" placeholder={m.search} maxLength={200} value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        <button type="submit">{m.search}</button>
      </form>
      <Problem error={load.error} />
      {items === null ? (
        <p>{m.loading}</p>
      ) : items.length === 0 ? (
        <p>{q.trim() ? m.noMatch : m.noRecipes}</p>
      ) : (
        <ul class="cards">
          {items.map((r) => (
            <li key={r.id}>
              <div class="row">
                <span style="flex:1">
                  <strong>{r.title}</strong> <span class="muted">{m.portions(r.servings)}</span>
                </span>
                <button type="button" class="link" onClick={() => void remove(r)} aria-label={`${m.deleteRecipe}: ${r.title}`}>
                  {m.deleteRecipe}
                </button>
              </div>
              <div class="muted">{r.ingredients.map((i) => i.displayName).join(', ')}</div>
            </li>
          ))}
        </ul>
      )}
      <h2>{m.newRecipe}</h2>
      <form onSubmit={submit} class="stack">
        <Field label={m.recipeTitle} name="title" required maxLength={200} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        <Field label={m.servings} name="servings" type="number" min={1} max={100} required value={servings} onInput={(e) => setServings(e.currentTarget.value)} />
        <div class="field">
          <label for="f-ingredients">{m.ingredients}</label>
          <textarea id="f-ingredients" rows={5} value={lines} onInput={(e) => setLines(e.currentTarget.value)} />
        </div>
        <Problem error={save.error} />
        <button type="submit" disabled={save.busy}>
          {m.save}
        </button>
      </form>
    </Page>
  );
}
