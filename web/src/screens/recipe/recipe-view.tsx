import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiProblem, api, dataOf, type Recipe } from '../../api';
import { amount, number, unitName } from '../../format';
import { t } from '../../i18n';
import { Page, Problem, useAction } from '../../ui';
import { RecipePhoto } from './recipe-photo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_PORTIONS = 100;

/** A saved recipe, read for the reading and cooking views; an address naming no recipe is "not found". */
export function useSavedRecipe(householdId: string, recipeId: string) {
  const [recipe, setRecipe] = useState<Recipe | null>(null);
  const load = useAction();
  useEffect(() => {
    void load.run(async () => {
      if (!UUID.test(recipeId)) throw new ApiProblem(404, 'recipe_not_found');
      setRecipe(await dataOf(api.GET('/api/v1/households/{householdId}/recipes/{recipeId}', { params: { path: { householdId, recipeId } } })));
    });
  }, [householdId, recipeId]);
  return { recipe, setRecipe, error: load.error };
}

/** What shows while a recipe is read, or why it could not be. */
export function RecipeLoading({ error }: { error: unknown }) {
  const m = t.value;
  return <Page title={m.recipes}>{error ? <Problem error={error} /> : <p>{m.loading}</p>}</Page>;
}

/** The portions to start at: `?portions=N` when it is a whole number from 1 to 100 (the week links with the day's), else the recipe's own. */
export function startingPortions(asked: string | undefined, servings: number): number {
  const n = Number(asked);
  return Number.isInteger(n) && n >= 1 && n <= MAX_PORTIONS ? n : servings;
}

/**
 * An amount scaled to other portions, rounded as a kitchen measures: whole grams and millilitres past ten, to five
 * past a hundred (no scale or jug is finer), two decimals below ten (0,75 stk, 1,5 dl). Unscaled, it is as written.
 */
function scaledQuantity(quantity: number, factor: number): number {
  if (factor === 1) return quantity;
  const q = quantity * factor;
  if (q >= 100) return Math.round(q / 5) * 5;
  if (q >= 10) return Math.round(q);
  return q;
}

/** An ingredient's line as the screen says it, its amount scaled by `factor`: "800 g kjøttdeig", "2 stk løk", "klype salt", "salt". */
export function ingredientLine(i: Recipe['ingredients'][number], factor: number): string {
  const q = i.quantity === null ? null : scaledQuantity(i.quantity, factor);
  const measure = q === null ? (i.unit === null ? '' : unitName(i.unit)) : i.unit === null ? number(q) : amount(q, i.unit);
  return measure === '' ? i.displayName : `${measure} ${i.displayName}`;
}

/** The recipe's ingredients for `portions`: each line scaled from the portions the recipe was written for. */
export function IngredientList({ recipe, portions }: { recipe: Recipe; portions: number }) {
  const m = t.value;
  const factor = portions / recipe.servings;
  if (recipe.ingredients.length === 0) return <p class="muted">{m.noIngredientsYet}</p>;
  return (
    <ul class="ingredient-list">
      {recipe.ingredients.map((i, n) => (
        <li key={n}>
          {ingredientLine(i, factor)}
          {i.optional && <span class="muted"> ({m.optional.toLowerCase()})</span>}
        </li>
      ))}
    </ul>
  );
}

/** − N + for the portions, 1 to 100; the number is read out when it changes. */
function PortionsStepper({ value, onChange }: { value: number; onChange: (n: number) => void }) {
  const m = t.value;
  const step = (by: number) => () => {
    const next = value + by;
    if (next >= 1 && next <= MAX_PORTIONS) onChange(next);
  };
  // aria-disabled, not disabled: the button keeps the keyboard's focus at 1 and at 100.
  return (
    <div class="stepper" role="group" aria-label={m.servings}>
      <button type="button" aria-label={m.fewerPortions} aria-disabled={value <= 1 ? 'true' : undefined} onClick={step(-1)}>
        −
      </button>
      <output aria-live="polite">{m.portions(value)}</output>
      <button type="button" aria-label={m.morePortions} aria-disabled={value >= MAX_PORTIONS ? 'true' : undefined} onClick={step(1)}>
        +
      </button>
    </div>
  );
}

/** The recipe's times, as short chips ("Aktiv tid 20 min", "Tid i alt 45 min"); nothing when it has none. */
function Times({ recipe }: { recipe: Recipe }) {
  const m = t.value;
  const times = [recipe.activeMinutes !== null && m.activeTime(recipe.activeMinutes), recipe.totalMinutes !== null && m.totalTime(recipe.totalMinutes)].filter((x) => x !== false);
  if (times.length === 0) return null;
  return (
    <ul class="recipe-times">
      {times.map((x) => (
        <li key={x}>{x}</li>
      ))}
    </ul>
  );
}

/** Where the recipe came from, opened in a new tab (and said to be). */
function SourceLink({ href }: { href: string }) {
  const m = t.value;
  let host = href;
  try {
    host = new URL(href).host;
  } catch {
    // An address the service kept but the browser cannot read is shown as written.
  }
  return (
    <p class="muted recipe-source">
      {m.source}:{' '}
      <a href={href} target="_blank" rel="noopener noreferrer">
        {host}
        <span class="visually-hidden"> ({m.opensInNewTab})</span>
      </a>
    </p>
  );
}

/**
 * A recipe to read and cook from: its picture, title, times, tags and source; "Lag mat" (the cooking view) for everyone and
 * "Rediger" for adults (role Owner or Adult; a Junior reads); the ingredients scaled to the portions chosen (from the
 * address's `?portions=N`, else the recipe's own), and the steps in order. The portions chosen are kept in the address
 * (replaced, not added to the history), so the cooking view opens with them and coming back finds them.
 */
export function RecipeView(props: { recipe: Recipe; role?: string; portions?: string; householdId?: string; onChange?: (r: Recipe) => void }) {
  const { recipe, role, portions: asked, householdId, onChange } = props;
  const m = t.value;
  const [portions, setPortions] = useState(() => startingPortions(asked, recipe.servings));
  const choose = (n: number) => {
    setPortions(n);
    history.replaceState(history.state, '', `${location.pathname}?portions=${n}`);
  };
  const adult = role === 'Owner' || role === 'Adult';
  return (
    <main id="main" tabIndex={-1} class="recipe-read">
      <RecipePhoto householdId={householdId ?? ''} recipe={recipe} adult={adult && householdId !== undefined && onChange !== undefined} onChange={onChange ?? (() => {})} />
      <h1>{recipe.title}</h1>
      <Times recipe={recipe} />
      {recipe.tags.length > 0 && (
        <ul class="recipe-tags" aria-label={m.recipeTags}>
          {recipe.tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      )}
      {recipe.sourceUrl && <SourceLink href={recipe.sourceUrl} />}
      <div class="recipe-actions">
        <a class="button" href={`/recipes/${recipe.id}/cook?portions=${portions}`}>
          {m.cook}
        </a>
        {adult && (
          <a class="button secondary" href={`/recipes/${recipe.id}/edit`}>
            {m.edit}
          </a>
        )}
      </div>
      <div class="recipe-body">
        <section class="recipe-ingredients" aria-labelledby="ingredients-h">
          <h2 id="ingredients-h">{m.ingredientsHeading}</h2>
          <PortionsStepper value={portions} onChange={choose} />
          {portions !== recipe.servings && <p class="muted">{m.scaledFrom(recipe.servings)}</p>}
          <IngredientList recipe={recipe} portions={portions} />
        </section>
        <section class="recipe-steps" aria-labelledby="steps-h">
          <h2 id="steps-h">{m.stepsHeading}</h2>
          {recipe.steps.length > 0 ? (
            <ol>
              {recipe.steps.map((s, n) => (
                <li key={n}>{s}</li>
              ))}
            </ol>
          ) : (
            <p class="muted">{m.noStepsYet}</p>
          )}
        </section>
      </div>
      <p>
        <a href="/recipes">{m.allRecipes}</a>
      </p>
    </main>
  );
}

/** The reading view at /recipes/:recipeId: the recipe read, then shown to everyone in the household. */
export function RecipeScreen({ householdId, recipeId, role }: { householdId: string; recipeId: string; role: string }) {
  const { query } = useLocation();
  const { recipe, setRecipe, error } = useSavedRecipe(householdId, recipeId);
  if (!recipe) return <RecipeLoading error={error} />;
  return <RecipeView recipe={recipe} role={role} portions={query['portions']} householdId={householdId} onChange={setRecipe} />;
}
