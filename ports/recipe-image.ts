import type { HouseholdId } from '../core/kernel/ids.js';
import type { RecipeId, RecipeImageType } from '../core/recipes/types.js';

export { RECIPE_IMAGE_TYPES, type RecipeImageType } from '../core/recipes/types.js';

/**
 * A recipe's picture as kept: its bytes, their sniffed type, a tag of the bytes, and where they were fetched from
 * (`sourceUrl`), or null for the household's own photo (uploaded, resized by the service).
 */
export interface RecipeImage {
  readonly sourceUrl: string | null;
  readonly mediaType: RecipeImageType;
  readonly bytes: Uint8Array;
  /** A strong ETag of the bytes, quotes included. */
  readonly etag: string;
}

/** Why an image address gave no image. The recipe is saved either way; the image is then simply absent. */
export type RecipeImageFailure =
  | 'forbidden-address' // the outbound guard refused the address or a redirect hop
  | 'unreachable' // no answer, an error status, too many redirects
  | 'timeout'
  | 'too-large' // over 5 MB (declared, streamed or decoded)
  | 'not-an-image' // the bytes sniff as none of RECIPE_IMAGE_TYPES (SVG, HTML, GIF...): the declared type is not trusted
  | 'too-many-pixels'; // the image's header declares more than 40 megapixels (checked before anything decodes it)

/** Fetches a recipe's image through the outbound guard and keeps it only when it is what it claims. */
export interface RecipeImageFetcher {
  fetch(url: string): Promise<{ readonly ok: true; readonly image: RecipeImage } | { readonly ok: false; readonly reason: RecipeImageFailure }>;
}

/**
 * The images of a household's recipes, one per recipe at most; deleting a recipe deletes its image. The recipe
 * store reads each recipe's image without its bytes (Recipe.image); this store holds the bytes.
 */
export interface RecipeImageStore {
  /** Keeps the image of the recipe (replacing any); false when the recipe is not the household's. */
  put(householdId: HouseholdId, recipeId: RecipeId, image: RecipeImage): Promise<boolean>;
  get(householdId: HouseholdId, recipeId: RecipeId): Promise<RecipeImage | null>;
  remove(householdId: HouseholdId, recipeId: RecipeId): Promise<void>;
}
