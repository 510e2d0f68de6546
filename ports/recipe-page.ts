/**
 * The recipe found on a web page, as the page wrote it: plain text, capped, nothing parsed yet. Reading the lines
 * into foods and quantities is the domain's job (core/recipes/import.ts); this is only what the page said.
 */
export interface ExtractedRecipe {
  /** Plain text, trimmed, non-empty, at most 200 characters. */
  readonly title: string;
  /** Each ingredient line as written, plain text, in order; no empty lines, no group headings; at most 100. */
  readonly ingredientLines: readonly string[];
  /** Plain text, in order; sections flattened, their names dropped; at most 100, each at most 2000 characters. */
  readonly steps: readonly string[];
  /** recipeYield as written ("4 porsjoner", "4", "Serves 4-6"). */
  readonly yields: string | null;
  /** The first whole number in `yields` when it is 1..100. */
  readonly servings: number | null;
  /** totalTime, else prepTime + cookTime when either is there. */
  readonly totalMinutes: number | null;
  /** prepTime; never more than totalMinutes. */
  readonly activeMinutes: number | null;
  /** An absolute http(s) URL, resolved against the page's address. */
  readonly imageUrl: string | null;
  readonly source: RecipePageSource;
  /** Codes of RecipePageWarning, in the order they arose, each once. */
  readonly warnings: readonly string[];
}

/**
 * Where the recipe was read from, best first: the extractor takes the first that holds one. 'layout' is a page with no
 * recipe markup, read from its headings and lists (ingredients under "Ingredienser", steps under "Slik gjør du").
 */
export type RecipePageSource = 'json-ld' | 'microdata' | 'layout' | 'opengraph';

export type RecipePageWarning =
  | 'json_ld_invalid' // a JSON-LD script that does not parse
  | 'json_ld_too_deep' // a JSON-LD script nested deeper than 32 levels, skipped unread
  | 'json_ld_too_large' // a JSON-LD script over 1,000,000 characters, skipped unread
  | 'several_recipes' // more than one recipe on the page: the first was taken
  | 'no_ingredients'
  | 'no_steps'
  | 'read_from_page_layout' // no recipe markup: read from the page's headings and lists, less sure than markup
  | 'opengraph_only'; // only a title and an image: no ingredients, no steps
