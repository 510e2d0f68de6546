import type { RecipeImageStore } from '../../ports/recipe-image.js';
import { bumpRevision, type MemoryTables } from './stores.js';

/** Pictures of recipes in memory: a recipe of another household, or one that is gone, keeps none. */
export function memoryRecipeImageStore(t: MemoryTables): RecipeImageStore {
  const mine = (householdId: string, recipeId: string) => t.recipeHouseholds.get(recipeId) === householdId && t.households.has(householdId);
  return {
    async put(householdId, recipeId, image) {
      if (!mine(householdId, recipeId)) return false;
      t.recipeImages.set(recipeId, { householdId, image: structuredClone(image) });
      // As the database's: a picture is part of what recipe lists show, kept under the revision.
      bumpRevision(t, householdId);
      return true;
    },
    async get(householdId, recipeId) {
      const kept = t.recipeImages.get(recipeId);
      return kept && kept.householdId === householdId && mine(householdId, recipeId) ? structuredClone(kept.image) : null;
    },
    async remove(householdId, recipeId) {
      if (t.recipeImages.get(recipeId)?.householdId !== householdId) return;
      t.recipeImages.delete(recipeId);
      bumpRevision(t, householdId);
    },
  };
}
