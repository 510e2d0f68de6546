import { createHash } from 'node:crypto';
import { normalizeFoodKey } from '../../core/kernel/food-key.js';
import type { LibraryIngredient, LibraryRecipe, RecipeLibrary } from '../../ports/recipe-library.js';
import sample from './sample-library.json' with { type: 'json' };

/** A recipe as written in sample-library.json: the food key is left out when the display name gives it. */
interface SampleRecipe extends Omit<LibraryRecipe, 'ingredients' | 'totalMinutes'> {
  readonly totalMinutes?: number | null;
  readonly ingredients: readonly (Omit<LibraryIngredient, 'foodKey'> & { readonly foodKey?: string })[];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A library over a fixed set of recipes. Food keys are normalized the way the service normalizes every key
 * (normalizeFoodKey), from the display name unless a recipe names its key; the set is checked once, and a bad
 * recipe stops the process (it is a fault of the build, not of a request).
 */
export function fixedRecipeLibrary(recipes: readonly SampleRecipe[]): RecipeLibrary {
  const all: LibraryRecipe[] = recipes
    .map((r) => {
      const ingredients = r.ingredients.map((i) => ({
        foodKey: normalizeFoodKey(i.foodKey ?? i.displayName),
        displayName: i.displayName,
        quantity: i.quantity,
        unit: i.unit,
      }));
      const recipe: LibraryRecipe = { id: r.id, title: r.title, servings: r.servings, totalMinutes: r.totalMinutes ?? null, ingredients, licence: r.licence, source: r.source, attribution: r.attribution };
      const fault = faultOf(recipe);
      if (fault) throw new Error(`recipe library: ${r.id}: ${fault}`);
      return recipe;
    })
    .sort((a, b) => cmp(a.id, b.id));
  for (let i = 1; i < all.length; i++) if (all[i]!.id === all[i - 1]!.id) throw new Error(`recipe library: id ${all[i]!.id} appears twice`);
  // The hash of the whole set as it is handed out: any added, changed or removed recipe changes it.
  const version = createHash('sha256').update(JSON.stringify(all)).digest('hex');
  return {
    all: async () => structuredClone(all),
    version: async () => version,
  };
}

function faultOf(r: LibraryRecipe): string | null {
  if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(r.id)) return 'the id must be lower-case letters, digits and -';
  if (r.title.trim() === '') return 'the title is empty';
  if (!Number.isInteger(r.servings) || r.servings < 1 || r.servings > 100) return 'servings must be a whole number from 1 to 100';
  if (r.totalMinutes !== null && !(Number.isInteger(r.totalMinutes) && r.totalMinutes >= 1 && r.totalMinutes <= 10_080)) return 'totalMinutes must be a whole number from 1 to 10080, or left out';
  if (r.ingredients.length === 0) return 'it has no ingredient';
  if ([r.licence, r.source, r.attribution].some((s) => s.trim() === '')) return 'licence, source and attribution are required';
  for (const i of r.ingredients) {
    if (i.foodKey === '') return `ingredient "${i.displayName}" names no food`;
    if (i.quantity !== null && !(Number.isFinite(i.quantity) && i.quantity > 0)) return `ingredient "${i.displayName}" needs a positive quantity or null`;
    if ((i.quantity === null) !== (i.unit === null)) return `ingredient "${i.displayName}" has a unit without a quantity or the other way round`;
  }
  return null;
}

/**
 * The default library: sample-library.json, Norwegian weekday dinners written for this service. Most are
 * CC-BY-SA-4.0; a few are CC-BY-4.0 or CC0-1.0 (kept out of the share-alike download). Ingredients use the food
 * keys of the sample food catalogue, so most recipes are fully priced; four name a food the catalogue lacks.
 */
export function embeddedRecipeLibrary(): RecipeLibrary {
  return fixedRecipeLibrary(sample as SampleRecipe[]);
}

/** RECIPE_LIBRARY=none: an install without library recipes. */
export function noRecipeLibrary(): RecipeLibrary {
  return fixedRecipeLibrary([]);
}
