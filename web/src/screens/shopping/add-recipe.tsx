import { useState } from 'preact/hooks';
import type { RecipeSummary } from '../../api';
import { t } from '../../i18n';
import { Problem, RecipeSelect, useAction } from '../../ui';

/** Adds a recipe's lines to this list, for a number of portions (the recipe's own by default), tied to no day. */
export function AddRecipe({ recipes, onAdd }: { recipes: RecipeSummary[]; onAdd: (recipeId: string, portions: number | undefined) => Promise<void> }) {
  const m = t.value;
  const [recipeId, setRecipeId] = useState('');
  const [portions, setPortions] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const act = useAction();
  const picked = recipes.find((r) => r.id === recipeId);
  const submit = (e: Event) => {
    e.preventDefault();
    if (!picked) return;
    void act.run(async () => {
      const n = portions.trim() === '' ? undefined : Number(portions);
      await onAdd(recipeId, n);
      setDone(m.recipeAdded(picked.title));
      setRecipeId('');
      setPortions('');
    });
  };
  return (
    <details class="add-recipe">
      <summary>{m.addRecipeToList}</summary>
      <form onSubmit={submit} class="stack">
        <RecipeSelect id="f-add-recipe" label={m.recipe} none={m.pickRecipe} recipes={recipes} required value={recipeId} onChange={setRecipeId} />
        <label for="f-add-portions">{m.servings}</label>
        <input id="f-add-portions" type="number" min={1} max={100} inputMode="numeric" placeholder={picked ? String(picked.servings) : ''} value={portions} onInput={(e) => setPortions(e.currentTarget.value)} />
        <button type="submit" disabled={act.busy || !picked}>
          {m.addToList}
        </button>
        {done && <p role="status">{done}</p>}
        <Problem error={act.error} />
      </form>
    </details>
  );
}
