import type { MealEvent } from './types.js';
import type { Recipe } from '../recipes/types.js';
import { avoidMatcher, type IngredientName } from '../kernel/avoids.js';
import type { IsoDate } from '../kernel/dates.js';
import type { DishConflict } from '../kernel/errors.js';
import { onceEachIgnoringCase } from '../kernel/words.js';

/** Every avoid of the day's events' participants, de-duplicated case-insensitively, in the order first given. */
export function avoidsOfDay(events: readonly Pick<MealEvent, 'participants'>[]): string[] {
  return onceEachIgnoringCase(events.flatMap((e) => e.participants.flatMap((p) => p.avoids)));
}

/**
 * The candidate gate: the first of the day's avoids that the recipe breaks, through any of its ingredients or those
 * of the base recipes it uses (however deep), or null when it may be served. It fails closed: optional ingredients
 * count too (a dish is judged by what its recipe may put on the table), and a named reference with no linked
 * recipe is judged by its name. The planner and the day route use this one function.
 */
export function dishConflict(recipe: Recipe, recipes: ReadonlyMap<string, Recipe>, avoids: readonly string[], date: IsoDate): DishConflict | null {
  if (avoids.length === 0) return null;
  const breaks = avoidMatcher(avoids);
  for (const ingredient of dishIngredients(recipe, recipes)) {
    const found = breaks(ingredient);
    if (found) return { date, recipeId: recipe.id, recipeTitle: recipe.title, avoid: found.avoid, ingredient: found.ingredient };
  }
  return null;
}

/**
 * Everything a dish may put on the table, as the gate judges it, in the recipe's order with each base's lines where
 * the base is used: every line (optional ones too) by its name, a named reference with no linked recipe by the
 * reference. A base reached twice is walked once.
 */
export function dishIngredients(recipe: Recipe, recipes: ReadonlyMap<string, Recipe>): IngredientName[] {
  const out: IngredientName[] = [];
  const seen = new Set<string>([recipe.id]);
  const walk = (r: Recipe): void => {
    for (const line of r.ingredients) {
      out.push({ displayName: line.reference ?? line.displayName, foodKey: line.foodKey });
      const base = line.baseRecipeId === null ? undefined : recipes.get(line.baseRecipeId);
      // Recipes refuse cycles; `seen` only keeps a damaged store from looping.
      if (base && !seen.has(base.id)) {
        seen.add(base.id);
        walk(base);
      }
    }
  };
  walk(recipe);
  return out;
}
