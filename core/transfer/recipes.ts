import type { RecipeImage } from '../../ports/recipe-image.js';
import { recipeTagsOf } from '../recipes/tags.js';
import type { Recipe } from '../recipes/types.js';
import { normalizeFoodKey } from '../kernel/food-key.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { invalid, renamer, type Into, type Invalid, type Renamer } from './checks.js';
import type { DocumentRecipe } from './document.js';

export interface RecipesIn {
  readonly recipes: readonly Recipe[];
  /** The kept pictures, by new recipe id. */
  readonly images: readonly { readonly recipeId: string; readonly image: RecipeImage }[];
  readonly recipeIds: Renamer;
}

/** A recipe whose bases lead back to itself (what the recipe routes refuse as recipe-cycle). */
function findCycle(recipes: readonly DocumentRecipe[]): string | null {
  const byId = new Map(recipes.map((r) => [r.id, r]));
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string): string | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') return id;
    state.set(id, 'open');
    for (const line of byId.get(id)?.ingredients ?? []) {
      if (line.baseRecipeId === null) continue;
      const found = visit(line.baseRecipeId);
      if (found) return found;
    }
    state.set(id, 'done');
    return null;
  };
  for (const r of recipes) {
    const found = visit(r.id);
    if (found) return found;
  }
  return null;
}

/** The recipes: bases within the document, no cycle, pictures that passed the image checks (`images`, by old id). */
export function checkRecipes(doc: readonly DocumentRecipe[], images: ReadonlyMap<string, RecipeImage>, into: Into): Result<RecipesIn, Invalid> {
  const recipeIds = renamer(into.ids);
  for (const [i, r] of doc.entries()) if (!recipeIds.add(r.id)) return fail(invalid(`recipes.${i}.id`, 'this id is given twice'));
  for (const [i, r] of doc.entries()) {
    for (const [j, line] of r.ingredients.entries()) {
      if (line.baseRecipeId !== null && !recipeIds.has(line.baseRecipeId)) {
        return fail(invalid(`recipes.${i}.ingredients.${j}.baseRecipeId`, 'names no recipe of the document'));
      }
    }
    if (r.image !== null && !images.has(r.id)) return fail(invalid(`recipes.${i}.image`, 'the picture was not checked'));
    if (r.createdAt > r.updatedAt) return fail(invalid(`recipes.${i}.updatedAt`, 'is before createdAt'));
  }
  const cycle = findCycle(doc);
  if (cycle !== null) return fail(invalid(`recipes.${doc.findIndex((r) => r.id === cycle)}`, 'its base recipes lead back to itself'));
  const recipes: Recipe[] = doc.map((r) => ({
    ...r,
    // In tag form, each once, as a recipe route keeps them; none in a document written before recipes had tags.
    tags: recipeTagsOf(r.tags),
    id: recipeIds.get(r.id),
    householdId: into.householdId,
    ingredients: r.ingredients.map((line) => ({
      ...line,
      foodKey: normalizeFoodKey(line.displayName),
      baseRecipeId: line.baseRecipeId === null ? null : recipeIds.get(line.baseRecipeId),
    })),
    // The picture goes apart (images); the store reads its info back from the kept bytes.
    image: null,
  }));
  const kept = doc.flatMap((r) => {
    const image = r.image === null ? undefined : images.get(r.id);
    return image ? [{ recipeId: recipeIds.get(r.id), image }] : [];
  });
  return ok({ recipes, images: kept, recipeIds });
}
