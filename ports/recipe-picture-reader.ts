import type { ExtractedRecipe } from './recipe-page.js';

/**
 * The optional AI that reads a recipe from a photo or a PDF of it (an OpenAI-compatible endpoint the operator
 * configures). It is given the file and nothing else: no household, no name, no id. What it answers is text as the
 * picture shows it, capped; the domain parses the lines (core/recipes/import.ts) and a person looks over every line
 * before anything is saved.
 */
export interface RecipePictureReader {
  read(file: { readonly bytes: Uint8Array; readonly mediaType: RecipePictureType }): Promise<RecipePictureRead>;
}

/** What a picture may be: what the bytes sniff as, never what the request says. */
export const RECIPE_PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type RecipePictureType = (typeof RECIPE_PICTURE_TYPES)[number];

export type RecipePictureRead = { readonly ok: true; readonly recipe: PictureRecipe } | { readonly ok: false; readonly reason: RecipePictureFailure };

/**
 * - unreachable: the AI did not answer in time, could not be reached, or answered an error status
 * - unreadable: it answered, but not the JSON asked for (not JSON, or breaking the recipe's schema)
 * - no-recipe: it answered that the picture holds no recipe
 */
export type RecipePictureFailure = 'unreachable' | 'unreadable' | 'no-recipe';

/** The recipe in the picture, as written there: the fields a page's recipe has, but no picture of its own. */
export type PictureRecipe = Omit<ExtractedRecipe, 'imageUrl' | 'source' | 'warnings'>;
