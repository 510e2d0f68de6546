/** A recipe of the shared library (not a household's): open data, each with its licence and credit. */
export interface LibraryRecipe {
  readonly id: string;
  readonly title: string;
  readonly servings: number;
  /** From start to table, in minutes; null when the recipe does not say (the planner then keeps it off days with a time limit). */
  readonly totalMinutes: number | null;
  readonly ingredients: readonly LibraryIngredient[];
  /** SPDX licence id, e.g. `CC-BY-SA-4.0`. */
  readonly licence: string;
  /** Where the recipe was taken from (a name or an address). */
  readonly source: string;
  /** The credit line the licence asks for. */
  readonly attribution: string;
}

export interface LibraryIngredient {
  readonly foodKey: string;
  readonly displayName: string;
  /** Null: to taste (counts as none of the food). */
  readonly quantity: number | null;
  readonly unit: string | null;
}

/**
 * The recipe library: the embedded default is a small set shipped with the service; an install may run with none.
 * Feeds the public library download and the dinner-price measurements.
 */
export interface RecipeLibrary {
  /** Every recipe, ordered by id. */
  all(): Promise<LibraryRecipe[]>;
  /** Names this set of recipes: it changes whenever any recipe is added, changed or removed. */
  version(): Promise<string>;
}
