import type { RecipeStore } from '../../ports/recipe-store.js';
import type { HouseholdId } from '../kernel/ids.js';
import type { Recipe } from './types.js';

/** These recipes (those that are the household's) and every base they reach: one read per level of base links. */
export async function recipesReaching(deps: { recipes: Pick<RecipeStore, 'byIds'> }, householdId: HouseholdId, ids: readonly string[]): Promise<Map<string, Recipe>> {
  const out = new Map<string, Recipe>();
  const asked = new Set<string>();
  let wanted = [...new Set(ids)];
  while (wanted.length > 0) {
    for (const id of wanted) asked.add(id);
    for (const r of await deps.recipes.byIds(householdId, wanted)) out.set(r.id, r);
    // A base that is not the household's (gone meanwhile) is asked for once only.
    wanted = [...new Set([...out.values()].flatMap((r) => r.ingredients.map((i) => i.baseRecipeId).filter((b): b is string => b !== null && !asked.has(b))))];
  }
  return out;
}
