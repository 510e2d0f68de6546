import type { RecipeImageStore } from '../../ports/recipe-image.js';
import type { MemoryTables } from './stores.js';

/** Pictures of recipes in memory: a recipe of another household, or one that is gone, keeps none. */
export function memoryRecipeImageStore(t: MemoryTables): RecipeImageStore {
  const mine = (householdId: string, recipeId: string) => t.recipeHouseholds.get(recipeId) === householdId && t.households.has(householdId);
  return {
    async put(householdId, recipeId, image) {
      if (!mine(householdId, recipeId)) return false;
      t.recipeImages.set(recipeId, { householdId, image: structuredClone(image) });
      return true;
    },
    async get(householdId, recipeId) {
      const kept = t.recipeImages.get(recipeId);
      return kept && kept.householdId === householdId && mine(householdId, recipeId) ? structuredClone(kept.image) : null;
    },
    async remove(householdId, recipeId) {
      if (t.recipeImages.get(recipeId)?.householdId === householdId) t.recipeImages.delete(recipeId);
    },
  };
}
