import { reachesItself } from '../../core/recipes/base-links.js';
import { compareCodePoints, pageOfSorted, pageOrder } from '../../core/recipes/page-order.js';
import { recipeSearchText } from '../../core/recipes/tags.js';
import { recipeSummaryOf, recipeTitleKey, type Recipe, type RecipeContent, type RecipeTagCount } from '../../core/recipes/types.js';
import type { RecipePage, RecipePageQuery, RecipeStore, RecipeWriteRefusal } from '../../ports/recipe-store.js';
import { bumpRevision, type MemoryTables } from './stores.js';

/**
 * Recipes of a household that is gone are gone too (the SQL cascade), checked on every access. Checks and writes
 * run without an await between them, so each write is atomic as the database's transaction is.
 */
export function memoryRecipeStore(t: MemoryTables): RecipeStore {
  const recipes = new Map<string, Recipe>();
  // The picture is read with the recipe, as the database joins recipe_images (without the bytes).
  const copy = (r: Recipe): Recipe => {
    const kept = t.recipeImages.get(r.id)?.image;
    return structuredClone({ ...r, image: kept ? { sourceUrl: kept.sourceUrl, mediaType: kept.mediaType, etag: kept.etag } : null });
  };
  const mine = (householdId: string, recipeId: string) => {
    const r = recipes.get(recipeId);
    return r && r.householdId === householdId && t.households.has(householdId) ? r : undefined;
  };
  const ofHousehold = (householdId: string) => (t.households.has(householdId) ? [...recipes.values()].filter((r) => r.householdId === householdId) : []);
  const basesOf = (c: RecipeContent) => c.ingredients.map((i) => i.baseRecipeId).filter((b): b is string => b !== null);

  function refusal(householdId: string, recipeId: string, content: RecipeContent): RecipeWriteRefusal | null {
    const unknown = basesOf(content).find((b) => b !== recipeId && !mine(householdId, b));
    if (unknown !== undefined) return { refused: 'unknown-base', baseRecipeId: unknown };
    const links = new Map(ofHousehold(householdId).map((r) => [r.id, basesOf(r)]));
    links.set(recipeId, basesOf(content));
    return reachesItself(recipeId, links) ? { refused: 'cycle' } : null;
  }

  const stored = (householdId: string, id: string, content: RecipeContent, createdAt: Date, updatedAt: Date): Recipe =>
    structuredClone({ id, householdId, ...content, tags: content.tags ?? [], image: null, createdAt, updatedAt });

  function page(householdId: string, query: RecipePageQuery): RecipePage {
    // searchText as the database keeps it: written with the recipe, from what it says.
    const sorted = ofHousehold(householdId)
      .map((r) => ({ r, id: r.id, titleKey: recipeTitleKey(r.title), searchText: recipeSearchText(r), tags: r.tags }))
      .sort(pageOrder);
    const chosen = pageOfSorted(sorted, query);
    return { ...chosen, items: chosen.items.map(({ r }) => copy(r)) };
  }

  return {
    async create(householdId, id, content, at) {
      // A recipe that does not exist yet cannot be its own base: a self-link is an unknown base here.
      const unknown = basesOf(content).find((b) => !mine(householdId, b));
      if (unknown !== undefined) return { refused: 'unknown-base', baseRecipeId: unknown };
      const recipe = stored(householdId, id, content, at, at);
      recipes.set(id, recipe);
      t.recipeHouseholds.set(id, householdId);
      bumpRevision(t, householdId);
      return copy(recipe);
    },
    async byId(householdId, recipeId) {
      const r = mine(householdId, recipeId);
      return r ? copy(r) : null;
    },
    async byIds(householdId, recipeIds) {
      return [...new Set(recipeIds)].map((id) => mine(householdId, id)).filter((r): r is NonNullable<typeof r> => r !== undefined && r !== null).map(copy);
    },
    async all(householdId) {
      return ofHousehold(householdId)
        .sort((a, b) => compareCodePoints(recipeTitleKey(a.title), recipeTitleKey(b.title)) || compareCodePoints(a.id, b.id))
        .map(copy);
    },
    async titlesOf(householdId, recipeIds) {
      const out: Record<string, string> = {};
      for (const id of recipeIds) {
        const r = mine(householdId, id);
        if (r) out[id] = r.title;
      }
      return out;
    },
    async page(householdId, query) {
      return page(householdId, query);
    },
    async summaryPage(householdId, query) {
      const whole = page(householdId, query);
      return { ...whole, items: whole.items.map(recipeSummaryOf) };
    },
    async tagCounts(householdId) {
      const counts = new Map<string, number>();
      for (const r of ofHousehold(householdId)) for (const tag of r.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      return [...counts].map(([tag, count]): RecipeTagCount => ({ tag, count }));
    },
    async replace(householdId, recipeId, content, at) {
      const existing = mine(householdId, recipeId);
      if (!existing) return null;
      const refused = refusal(householdId, recipeId, content);
      if (refused) return refused;
      const recipe = stored(householdId, recipeId, content, existing.createdAt, at);
      recipes.set(recipeId, recipe);
      bumpRevision(t, householdId);
      return copy(recipe);
    },
    async setImage(householdId, recipeId, image, at) {
      const existing = mine(householdId, recipeId);
      if (!existing) return null;
      const recipe = { ...existing, imageUrl: null, updatedAt: at };
      recipes.set(recipeId, recipe);
      if (image === null) t.recipeImages.delete(recipeId);
      else t.recipeImages.set(recipeId, { householdId, image: structuredClone(image) });
      bumpRevision(t, householdId);
      return copy(recipe);
    },
    async delete(householdId, recipeId, at) {
      const gone = mine(householdId, recipeId);
      if (!gone) return false;
      recipes.delete(recipeId);
      t.recipeHouseholds.delete(recipeId);
      t.recipeImages.delete(recipeId);
      bumpRevision(t, householdId);
      for (const r of ofHousehold(householdId)) {
        if (!r.ingredients.some((i) => i.baseRecipeId === recipeId)) continue;
        const ingredients = r.ingredients.map((i) => (i.baseRecipeId === recipeId ? { ...i, baseRecipeId: null, reference: gone.title } : i));
        recipes.set(r.id, { ...r, ingredients, updatedAt: at });
      }
      for (const hook of t.onRecipeDeleted) hook(householdId, recipeId);
      return true;
    },
  };
}
