import type { HouseholdId } from '../core/kernel/ids.js';
import type { Recipe, RecipeContent, RecipeId, RecipePosition, RecipeSummary, RecipeTagCount } from '../core/recipes/types.js';
import type { RecipeImage } from './recipe-image.js';

/**
 * Why a store refused a write, checked in the same atomic step as the write (concurrent writers of one
 * household cannot together build a cycle or point at a recipe deleted meanwhile):
 * - 'unknown-base': a line's baseRecipeId is not a recipe of the household (another household's counts as unknown);
 * - 'cycle': after the write the recipe would reach itself through base links.
 */
export type RecipeWriteRefusal = { readonly refused: 'unknown-base'; readonly baseRecipeId: RecipeId } | { readonly refused: 'cycle' };

export interface RecipePageQuery {
  /** Only recipes whose recipeTitleKey(title) contains this (already a title key); null: all. */
  readonly titleKeyContains: string | null;
  /**
   * Only recipes whose recipeSearchText (title, any line's displayName, any tag) contains this (already a
   * recipeSearchKey); null or left out: all.
   */
  readonly textContains?: string | null;
  /** Only recipes carrying this tag (already in tag form, recipeTag); null or left out: all. */
  readonly tag?: string | null;
  /** Recipes after this position in (title key, id) order; null: from the start. */
  readonly after: RecipePosition | null;
  readonly limit: number;
}

export interface RecipePage {
  readonly items: Recipe[];
  /** Recipes matching the filter, whatever the position. */
  readonly total: number;
  /** More matching recipes follow the last item. */
  readonly more: boolean;
}

/** A page of summaries: the same recipes, total and more as RecipeStore.page answers for the same query. */
export interface RecipeSummaryPage {
  readonly items: RecipeSummary[];
  readonly total: number;
  readonly more: boolean;
}

/**
 * A household's recipes with their lines, in order, and their tags. Every read and write is scoped to the household.
 * Content without tags is written with none; the store keeps tags as given (the use cases put them in tag form).
 */
export interface RecipeStore {
  create(householdId: HouseholdId, id: RecipeId, content: RecipeContent, at: Date): Promise<Recipe | RecipeWriteRefusal>;
  byId(householdId: HouseholdId, recipeId: RecipeId): Promise<Recipe | null>;
  /** Those of `recipeIds` that are the household's recipes, with their lines, in one read (order not given). */
  byIds(householdId: HouseholdId, recipeIds: readonly RecipeId[]): Promise<Recipe[]>;
  /** Every recipe of the household with its lines (the planner's candidates), ordered by title key, then id. */
  all(householdId: HouseholdId): Promise<Recipe[]>;
  /** id → title of those ids that are the household's recipes; others are absent. */
  titlesOf(householdId: HouseholdId, recipeIds: readonly RecipeId[]): Promise<Record<RecipeId, string>>;
  /** Ordered by recipeTitleKey(title) (code point order), then id; every filter given must hold. */
  page(householdId: HouseholdId, query: RecipePageQuery): Promise<RecipePage>;
  /** The page `page` answers for the same query, each recipe as its recipeSummaryOf (no steps are read). */
  summaryPage(householdId: HouseholdId, query: RecipePageQuery): Promise<RecipeSummaryPage>;
  /** Each tag the household's recipes carry, with how many carry it (order not given). */
  tagCounts(householdId: HouseholdId): Promise<RecipeTagCount[]>;
  /** Writes every field, the lines and the tags anew, keeping createdAt; null when the recipe is not the household's. */
  replace(householdId: HouseholdId, recipeId: RecipeId, content: RecipeContent, at: Date): Promise<Recipe | null | RecipeWriteRefusal>;
  /**
   * The household's own choice of picture, in one step: `image` is kept as the recipe's picture (replacing any), or
   * with null none is; either way the recipe's imageUrl becomes null (the picture no longer follows an address) and
   * its updatedAt `at`. The recipe after, or null when it is not the household's (nothing written).
   */
  setImage(householdId: HouseholdId, recipeId: RecipeId, image: RecipeImage | null, at: Date): Promise<Recipe | null>;
  /**
   * Deletes the recipe; false when it is not the household's. Lines of other recipes that used it as their base
   * keep their place and become a named reference (baseRecipeId null, reference = the deleted recipe's title),
   * and those recipes' updatedAt becomes `at`. Plan days that served it lose the dish (the day stays).
   */
  delete(householdId: HouseholdId, recipeId: RecipeId, at: Date): Promise<boolean>;
}
