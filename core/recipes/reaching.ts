import type { RecipeStore } from '../../ports/recipe-store.js';
import type { HouseholdId } from '../kernel/ids.js';
import type { Recipe } from './types.js';

/**
 * These recipes (those that are the household's) and every base they reach: one read per level of base links.
 * Recipes the caller has read already (`known`, the household's) are taken as they are: only what they lack is read.
 */
export async function recipesReaching(
  deps: { recipes: Pick<RecipeStore, 'byIds'> },
  householdId: HouseholdId,
  ids: readonly string[],
  known: readonly Recipe[] = [],
): Promise<Map<string, Recipe>> {
  const out = new Map<string, Recipe>(known.map((r) => [r.id, r]));
  const asked = new Set<string>(out.keys());
  // A base that is not the household's (gone meanwhile) is asked for once only.
  const basesToRead = () => [...new Set([...out.values()].flatMap((r) => r.ingredients.map((i) => i.baseRecipeId).filter((b): b is string => b !== null && !asked.has(b))))];
  let wanted = [...new Set(ids)].filter((id) => !asked.has(id));
  if (wanted.length === 0) wanted = basesToRead();
  while (wanted.length > 0) {
    for (const id of wanted) asked.add(id);
    for (const r of await deps.recipes.byIds(householdId, wanted)) out.set(r.id, r);
    wanted = basesToRead();
  }
  return out;
}
