import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { ImageResizer } from '../../ports/image-resizer.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import type { Account } from '../accounts/types.js';
import { requireAdult } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import type { Recipe, RecipeId } from './types.js';

export interface RecipePhotoDeps {
  households: HouseholdStore;
  recipes: RecipeStore;
  imageResizer: ImageResizer;
  clock: Clock;
}

/** The longer side of a household's own photo as kept, in pixels: sharp on a phone's screen, and small to send. */
export const RECIPE_PHOTO_MAX_SIDE = 1600;

type Denied = ErrorOf<'household-not-found' | 'adults-only' | 'recipe-not-found'>;

/**
 * The household's own photo becomes the recipe's picture (adults only), replacing any, an imported one too: the
 * bytes are judged and made fit by the ImageResizer (a JPEG, PNG or WebP of at most 40 megapixels that decodes;
 * upright, at most RECIPE_PHOTO_MAX_SIDE on its longer side, no metadata). The recipe's imageUrl is cleared with it,
 * so that a later save of the recipe does not fetch the imported picture back over the photo. A photo refused
 * changes nothing.
 */
export async function putRecipePhoto(
  deps: RecipePhotoDeps,
  caller: Account,
  householdId: HouseholdId,
  recipeId: RecipeId,
  bytes: Uint8Array,
): Promise<Result<Recipe, Denied | ErrorOf<'recipe-photo-refused'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  // Asked before the photo is decoded: another household's recipe costs no decoding.
  if (!(await deps.recipes.byId(householdId, recipeId))) return fail({ type: 'recipe-not-found' });
  const fitted = await deps.imageResizer.fit(bytes, RECIPE_PHOTO_MAX_SIDE);
  if (!fitted.ok) return fail({ type: 'recipe-photo-refused', reason: fitted.reason });
  const { mediaType, bytes: kept, etag } = fitted.image;
  const saved = await deps.recipes.setImage(householdId, recipeId, { sourceUrl: null, mediaType, bytes: kept, etag }, deps.clock.now());
  return saved ? ok(saved) : fail({ type: 'recipe-not-found' });
}

/**
 * The recipe keeps no picture (adults only), whether imported or the household's own, and its imageUrl is cleared,
 * so that a later save does not fetch the imported one back. A recipe that has none answers the same.
 */
export async function removeRecipePhoto(
  deps: Omit<RecipePhotoDeps, 'imageResizer'>,
  caller: Account,
  householdId: HouseholdId,
  recipeId: RecipeId,
): Promise<Result<void, Denied>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  return (await deps.recipes.setImage(householdId, recipeId, null, deps.clock.now())) ? ok(undefined) : fail({ type: 'recipe-not-found' });
}
