import type { HouseholdId } from '../kernel/ids.js';

export type RecipeId = string;

/** Limits of a recipe (the HTTP schema answers 400 past them). */
export const RECIPE_LIMITS = {
  titleMax: 200,
  servingsMin: 1,
  servingsMax: 100,
  /** activeMinutes and totalMinutes: 0 to one week. */
  minutesMax: 10_080,
  stepsMax: 100,
  stepMax: 2_000,
  ingredientsMax: 100,
  displayNameMax: 200,
  unitMax: 32,
  referenceMax: 200,
  /** quantity is greater than 0 and at most this. */
  quantityMax: 100_000,
  /** Tags of one recipe, and the characters of one (in its tag form, see core/recipes/tags.ts). */
  tagsMax: 12,
  tagMax: 32,
} as const;

/**
 * One line of a recipe, in the recipe's order. A line names a food (`foodKey`, from `displayName`), or points at a
 * base recipe of the same household whose own lines it stands for (`baseRecipeId`, e.g. a dough or a sauce), or
 * names a base that has no recipe here (`reference`, e.g. "see the pizza dough"): never both of the last two.
 */
export interface Ingredient {
  readonly displayName: string;
  /** normalizeFoodKey(displayName), computed by the server. */
  readonly foodKey: string;
  /** Greater than 0; null for "to taste". */
  readonly quantity: number | null;
  readonly unit: string | null;
  readonly optional: boolean;
  readonly baseRecipeId: RecipeId | null;
  readonly reference: string | null;
}

/** What a recipe says, as written by its household (a replacement writes all of it). */
export interface RecipeContent {
  readonly title: string;
  readonly servings: number;
  readonly activeMinutes: number | null;
  readonly totalMinutes: number | null;
  readonly steps: readonly string[];
  readonly ingredients: readonly Ingredient[];
  /** The web page it was imported from, as saved; null when typed in. */
  readonly sourceUrl: string | null;
  /** The address of its picture, as saved; the picture itself is kept apart (ports/recipe-image.ts). */
  readonly imageUrl: string | null;
  /**
   * Its tags ("hverdag", "fisk", "barn liker") in tag form (recipeTagsOf), each once, in the order written. Left
   * out, a recipe has none: writers that came before tags (the recipe library's copies) need not name them.
   */
  readonly tags?: readonly string[];
}

/** The image formats a recipe keeps: those every browser shows and none of which can carry script (SVG can). */
export const RECIPE_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type RecipeImageType = (typeof RECIPE_IMAGE_TYPES)[number];

/**
 * The picture kept for a recipe, without its bytes: where it was fetched from (null: the household's own photo,
 * uploaded), its type and a tag of its bytes.
 */
export interface RecipeImageInfo {
  readonly sourceUrl: string | null;
  readonly mediaType: RecipeImageType;
  readonly etag: string;
}

export interface Recipe extends RecipeContent {
  /** Every read recipe names its tags: [] when it has none. */
  readonly tags: readonly string[];
  /** null until a picture is kept (it may never be: a page's image that is not a JPEG, PNG or WebP is not). */
  readonly image: RecipeImageInfo | null;
  readonly id: RecipeId;
  readonly householdId: HouseholdId;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * What a list of recipes shows of each (the recipe list, a picker): everything but the steps, and of the lines only
 * their names, in order. A household of years has thousands of recipes; a page of whole ones is mostly steps.
 */
export interface RecipeSummary extends Pick<Recipe, 'id' | 'householdId' | 'title' | 'servings' | 'activeMinutes' | 'totalMinutes' | 'tags' | 'image' | 'updatedAt'> {
  /** Each line's displayName, in the recipe's order. */
  readonly ingredientNames: readonly string[];
}

/** The summary of a whole recipe: what RecipeStore.summaryPage reads of it. */
export const recipeSummaryOf = (r: Recipe): RecipeSummary => ({
  id: r.id,
  householdId: r.householdId,
  title: r.title,
  servings: r.servings,
  activeMinutes: r.activeMinutes,
  totalMinutes: r.totalMinutes,
  ingredientNames: r.ingredients.map((i) => i.displayName),
  tags: [...r.tags],
  image: r.image,
  updatedAt: r.updatedAt,
});

/**
 * Recipes list by title without regard to case, then by id: the title's sort key is its NFKC form in lower case
 * (locale-independent), compared by code point. Search (`q`) compares keys made the same way (core/recipes/tags.ts).
 */
export const recipeTitleKey = (title: string): string => title.normalize('NFKC').toLowerCase();

/** A tag of the household (in tag form, core/recipes/tags.ts) and how many of its recipes carry it. */
export interface RecipeTagCount {
  readonly tag: string;
  readonly count: number;
}

/** Where a page ends: the last recipe's title key and id. */
export interface RecipePosition {
  readonly titleKey: string;
  readonly id: RecipeId;
}
