import type { Knex } from 'knex';
import type { RecipeImageType } from '../../core/recipes/types.js';
import type { RecipeImage, RecipeImageStore } from '../../ports/recipe-image.js';

interface ImageRow {
  recipe_id: string;
  household_id: string;
  /** null: the household's own photo (migration 0047). */
  source_url: string | null;
  media_type: string;
  bytes: Buffer | Uint8Array;
  etag: string;
}

/** Writes the picture of a recipe the caller has found to be the household's, replacing any. */
export async function keepImageRow(trx: Knex.Transaction, householdId: string, recipeId: string, image: RecipeImage): Promise<void> {
  const row: ImageRow = { recipe_id: recipeId, household_id: householdId, source_url: image.sourceUrl, media_type: image.mediaType, bytes: Buffer.from(image.bytes), etag: image.etag };
  await trx('recipe_images').insert(row).onConflict('recipe_id').merge(['household_id', 'source_url', 'media_type', 'bytes', 'etag']);
}

/**
 * A picture is part of what the household's recipe lists show, and those are kept under the household's revision
 * (speed/recipe-summaries.ts); recipe_images has no trigger of migration 0016's (a picture changes no shopping list),
 * so its writes move the revision here.
 */
async function moveRevision(trx: Knex.Transaction, householdId: string): Promise<void> {
  await trx('household_revisions').where({ household_id: householdId }).increment('revision', 1);
}

/** Pictures of recipes in recipe_images (migration 0038), one per recipe, scoped by household on every call. */
export function knexRecipeImageStore(knex: Knex): RecipeImageStore {
  return {
    async put(householdId, recipeId, image) {
      return knex.transaction(async (trx) => {
        // The recipe must be the household's: checked in the same transaction as the write.
        const recipe = await trx('recipes').where({ id: recipeId, household_id: householdId }).first('id');
        if (!recipe) return false;
        await keepImageRow(trx, householdId, recipeId, image);
        await moveRevision(trx, householdId);
        return true;
      });
    },
    async get(householdId, recipeId) {
      const r = (await knex<ImageRow>('recipe_images').where({ recipe_id: recipeId, household_id: householdId }).first()) as ImageRow | undefined;
      return r ? { sourceUrl: r.source_url, mediaType: r.media_type as RecipeImageType, bytes: new Uint8Array(r.bytes), etag: r.etag } : null;
    },
    async remove(householdId, recipeId) {
      await knex.transaction(async (trx) => {
        if ((await trx('recipe_images').where({ recipe_id: recipeId, household_id: householdId }).delete()) > 0) await moveRevision(trx, householdId);
      });
    },
  };
}
