import type { Recipe } from '../../api';
import { number, unitName } from '../../format';
import { t } from '../../i18n';
import { Page } from '../../ui';

/** A recipe to cook from (what a Junior sees): what it needs and its steps. */
export function RecipeView({ recipe }: { recipe: Recipe }) {
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
            {[i.quantity === null ? '' : number(i.quantity), i.unit === null ? '' : unitName(i.unit, i.quantity ?? undefined), i.displayName].filter((x) => x !== '').join(' ')}
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
